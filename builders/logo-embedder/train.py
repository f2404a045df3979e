"""Trains the logo embedder (step 2 of `npm run train:logos`) and exports it to ONNX.

Data: the designs rendered by render-logos.ts whose brand is in the `train` split (held-out brands are never read).
Task: contrastive (NT-Xent, temperature TAU) between the registered file (clean_view) and a seller's picture of it
(seller_view); every other design in the batch is a negative. The network is a small VGG-style CNN with batch norm,
generalised-mean pooling and a linear projection to DIM values, L2-normalised in the graph.

Usage: python3 train.py <cache-dir> <out.onnx> <card.json> [--steps N]
Reproducible: Python, NumPy and torch seeds are fixed; one thread count (2). Time on the machine goes in the card.
"""
import hashlib
import json
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image

sys.path.insert(0, os.path.dirname(__file__))
from augment import clean_view, seller_view  # noqa: E402

SEED = 20261125
SIZE = 80
DIM = 128
BATCH = 96
STEPS = 800
LR = 3e-3
TAU = 0.07


def block(cin, cout, stride):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class LogoEmbedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            block(3, 16, 2), block(16, 32, 1),
            block(32, 48, 2), block(48, 48, 1),
            block(48, 96, 2), block(96, 96, 1),
            block(96, 160, 2), block(160, 160, 1),
        )
        self.p = nn.Parameter(torch.tensor(3.0))
        self.head = nn.Linear(160, DIM)

    def forward(self, x):
        x = self.features(x)
        x = x.clamp(min=1e-6).pow(self.p).mean(dim=(2, 3)).pow(1.0 / self.p)
        return F.normalize(self.head(x), dim=1)


def to_tensor(images):
    arr = np.stack([np.asarray(i, dtype=np.float32) for i in images]) / 127.5 - 1.0
    return torch.from_numpy(arr).permute(0, 3, 1, 2).contiguous()


def nt_xent(a, b):
    logits = a @ b.t() / TAU
    target = torch.arange(a.shape[0])
    return (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target)) / 2


def main():
    cache, out_onnx, out_card = sys.argv[1:4]
    steps = int(sys.argv[sys.argv.index('--steps') + 1]) if '--steps' in sys.argv else STEPS
    torch.set_num_threads(2)
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    rng = random.Random(SEED)

    manifest = json.load(open(os.path.join(cache, 'manifest.json')))
    designs = [d for d in manifest['designs'] if d['split'] == 'train']
    logos = [Image.open(os.path.join(cache, d['png'])).convert('RGBA') for d in designs]
    text_dir = os.path.join(cache, 'text')
    texts = [Image.open(os.path.join(text_dir, f)).convert('RGBA') for f in sorted(os.listdir(text_dir))]
    data_hash = hashlib.sha256()
    for d in designs:
        data_hash.update(open(os.path.join(cache, d['png']), 'rb').read())

    model = LogoEmbedder()
    optimiser = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=LR, total_steps=steps, pct_start=0.08)
    started = time.time()
    order = []
    model.train()
    for step in range(steps):
        if len(order) < BATCH:
            order += rng.sample(range(len(logos)), len(logos))
        chosen, order = order[:BATCH], order[BATCH:]
        clean = to_tensor([clean_view(logos[i], rng, SIZE) for i in chosen])
        seller = to_tensor([seller_view(logos[i], rng, SIZE, texts, logos) for i in chosen])
        a, b = model(torch.cat([clean, seller])).split(len(chosen))
        loss = nt_xent(a, b)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 50 == 0 or step == steps - 1:
            print(f'step {step}/{steps} loss {loss.item():.3f} {time.time() - started:.0f} s', flush=True)
    seconds = time.time() - started

    model.eval()
    dummy = torch.zeros(1, 3, SIZE, SIZE)
    torch.onnx.export(model, dummy, out_onnx, input_names=['image'], output_names=['embedding'],
                      dynamic_axes={'image': {0: 'batch'}, 'embedding': {0: 'batch'}}, opset_version=13)
    model_hash = hashlib.sha256(open(out_onnx, 'rb').read()).hexdigest()
    brands = len({d['brand'] for d in designs})
    card = {
        'name': 'logo-embedder',
        'format': 'onnx (opset 13)',
        'input': {'name': 'image', 'shape': [None, 3, SIZE, SIZE], 'layout': 'NCHW', 'dtype': 'float32',
                  'normalisation': '(pixel / 255 - 0.5) / 0.5', 'picture': 'the service normaliser output resized'},
        'output': {'name': 'embedding', 'dimensions': DIM, 'l2_normalised': True},
        'architecture': '8 conv3x3+BN+ReLU layers (16-32-48-48-96-96-160-160, stride 2 every other), GeM pooling, linear',
        'parameters': sum(p.numel() for p in model.parameters()),
        'objective': f'NT-Xent (temperature {TAU}) between the registered file and a seller picture of it',
        'training': {'steps': steps, 'batch_designs': BATCH, 'optimiser': f'AdamW, one-cycle, max lr {LR}',
                     'seed': SEED, 'threads': 2, 'seconds': round(seconds), 'machine': os.uname().machine,
                     'cpu_count': os.cpu_count(), 'torch': torch.__version__},
        'data': {'train_designs': len(designs), 'train_brands': brands, 'text_strips': len(texts),
                 'held_out': 'brands of the validation and test splits are never read (render-logos.ts)',
                 'sources': 'simple-icons 16.37.0 (CC0-1.0 icons only), devicon 2.17.0 (MIT)',
                 'train_png_sha256': data_hash.hexdigest()},
        'sha256': model_hash,
    }
    json.dump(card, open(out_card, 'w'), indent=2)
    print(json.dumps(card['training']), flush=True)


if __name__ == '__main__':
    main()
