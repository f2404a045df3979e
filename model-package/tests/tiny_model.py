"""
Writes the small seeded TorchScript encoder the tests use (32 dimensions, any input size) to the path given:

    /usr/bin/python3 model-package/tests/tiny_model.py <out.pt>
"""
import sys

import torch

DIMENSIONS = 32


class TinyEncoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, kernel_size=5, stride=4)
        self.project = torch.nn.Linear(8 * 4 * 4, DIMENSIONS)

    def forward(self, pixels):
        features = torch.nn.functional.adaptive_avg_pool2d(torch.relu(self.conv(pixels)), 4)
        return self.project(features.flatten(1))


def save(path):
    torch.manual_seed(7)
    torch.jit.script(TinyEncoder().eval()).save(path)


if __name__ == "__main__":
    save(sys.argv[1])
