"""Trains the logo embedder (step 2 of `npm run train:logos`) and exports it to ONNX.

Data: the designs rendered by render-logos.ts whose brand is in the `train` split (held-out brands are never read).
Task: contrastive (NT-Xent, temperature TAU) between the registered file (clean_view) and a seller's picture of it
(seller_view); every other design in the batch is a negative. The network is a small VGG-style CNN with batch norm,
generalised-mean pooling and a linear projection to DIM values, L2-normalised in the graph.

Usage: python3 train.py <cache-dir> <out.onnx> <card.json> [--minutes M | --steps N] [--continue [--lr L]]
--continue: a further stage from the weights the last run saved (<cache-dir>/logo-embedder.pt, which must be the
weights of the model <card.json> describes), with a schedule of its own (warm-up, cosine) peaking at CONTINUE_LR,
its pictures starting where the earlier stages' stopped; the card lists every earlier stage.
Length: a wall-clock budget (default MINUTES) on a shared 2-core machine, with the learning rate following the share
of the budget used (warm-up, then cosine decay); or a fixed number of steps (the schedule follows the steps), which
repeats a run exactly. Python, NumPy and torch seeds are fixed; 2 threads. Steps done and time taken go in the card.
"""
import math
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
from augment import clean_view, distractor_view, seller_view  # noqa: E402

SEED = 20261125
SIZE = 64
DIM = 128
BATCH = 96
# Pictures that show no logo whole (text, clutter, a bare product, a sliver at the edge) added to every batch as
# negatives of every logo.
DISTRACTORS = 32
MINUTES = 45.0
LR = 3e-3
CONTINUE_LR = 1e-3
TAU = 0.07


def block(cin, cout, stride):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class LogoEmbedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            block(3, 16, 2), block(16, 24, 1),
            block(24, 32, 2), block(32, 32, 1),
            block(32, 64, 2), block(64, 64, 1),
            block(64, 128, 2), block(128, 128, 1),
        )
        self.p = nn.Parameter(torch.tensor(3.0))
        self.head = nn.Linear(128, DIM)

    def forward(self, x):
        x = self.features(x)
        x = x.clamp(min=1e-6).pow(self.p).mean(dim=(2, 3)).pow(1.0 / self.p)
        return F.normalize(self.head(x), dim=1)


def to_tensor(images):
    arr = np.stack([np.asarray(i, dtype=np.float32) for i in images]) / 127.5 - 1.0
    return torch.from_numpy(arr).permute(0, 3, 1, 2).contiguous()


class Batches(torch.utils.data.Dataset):
    """Batch k: BATCH designs (a fresh seeded permutation every epoch), their clean and seller views; seeded by k."""

    def __init__(self, logos, texts, first=0):
        self.logos, self.texts, self.first = logos, texts, first
        self.per_epoch = len(logos) // BATCH

    def __len__(self):
        return 10 ** 6

    def __getitem__(self, k):
        k += self.first
        epoch, at = divmod(k, self.per_epoch)
        order = random.Random(SEED + epoch).sample(range(len(self.logos)), len(self.logos))
        chosen = order[at * BATCH:(at + 1) * BATCH]
        rng = random.Random(SEED * 7919 + k)
        clean = to_tensor([clean_view(self.logos[i], rng, SIZE) for i in chosen])
        seller = to_tensor([seller_view(self.logos[i], rng, SIZE, self.texts, self.logos) for i in chosen])
        distractors = to_tensor([distractor_view(rng, SIZE, self.texts, self.logos) for _ in range(DISTRACTORS)])
        return clean, seller, distractors


def sha256_of(path):
    return hashlib.sha256(open(path, 'rb').read()).hexdigest()


def nt_xent(a, b, d):
    """Each clean logo against every seller picture and every distractor; each seller picture against every clean
    logo. The distractors are negatives only."""
    target = torch.arange(a.shape[0])
    logits = a @ torch.cat([b, d]).t() / TAU
    return (F.cross_entropy(logits, target) + F.cross_entropy((a @ b.t() / TAU).t(), target)) / 2


def main():
    cache, out_onnx, out_card = sys.argv[1:4]
    steps = int(sys.argv[sys.argv.index('--steps') + 1]) if '--steps' in sys.argv else None
    minutes = float(sys.argv[sys.argv.index('--minutes') + 1]) if '--minutes' in sys.argv else MINUTES
    weights = os.path.join(cache, 'logo-embedder.pt')
    earlier = []
    if '--continue' in sys.argv:
        previous = json.load(open(out_card))
        if previous.get('weights_sha256') and previous['weights_sha256'] != sha256_of(weights):
            sys.exit(f'{weights} is not the weights of the model {out_card} describes: train that model again first')
        earlier = previous.get('earlier_stages', []) + [previous['training']]
    first_batch = sum(stage['steps'] for stage in earlier)
    max_lr = float(sys.argv[sys.argv.index('--lr') + 1]) if '--lr' in sys.argv else CONTINUE_LR if earlier else LR
    # One thread for the network and one worker process making the pictures: on a busy 2-core machine two intra-op
    # threads mostly wait for each other.
    torch.set_num_threads(1)
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)

    manifest = json.load(open(os.path.join(cache, 'manifest.json')))
    designs = [d for d in manifest['designs'] if d['split'] == 'train']
    logos = [Image.open(os.path.join(cache, d['png'])).convert('RGBA') for d in designs]
    text_dir = os.path.join(cache, 'text')
    texts = [Image.open(os.path.join(text_dir, f)).convert('RGBA') for f in sorted(os.listdir(text_dir))]
    data_hash = hashlib.sha256()
    for d in designs:
        data_hash.update(open(os.path.join(cache, d['png']), 'rb').read())

    model = LogoEmbedder()
    if earlier:
        model.load_state_dict(torch.load(weights))
    optimiser = torch.optim.AdamW(model.parameters(), lr=max_lr, weight_decay=1e-4)
    batches = iter(torch.utils.data.DataLoader(Batches(logos, texts, first_batch), batch_size=None, shuffle=False, num_workers=1, prefetch_factor=4))
    started = time.time()
    model.train()
    step = 0
    while True:
        done = step / steps if steps else (time.time() - started) / (minutes * 60)
        if done >= 1:
            break
        lr = max_lr * done / 0.06 if done < 0.06 else max_lr * 0.5 * (1 + math.cos(math.pi * (done - 0.06) / 0.94))
        for group in optimiser.param_groups:
            group['lr'] = lr
        clean, seller, distractors = next(batches)
        a, b, d = model(torch.cat([clean, seller, distractors])).split([BATCH, BATCH, DISTRACTORS])
        loss = nt_xent(a, b, d)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if step % 25 == 0:
            print(f'step {step} ({done:.0%}) lr {lr:.5f} loss {loss.item():.3f} {time.time() - started:.0f} s', flush=True)
        step += 1
    steps = step
    seconds = time.time() - started

    model.eval()
    # The weights as torch holds them, beside the rendered logos (not committed): a later run may start from them.
    torch.save(model.state_dict(), weights)
    dummy = torch.zeros(1, 3, SIZE, SIZE)
    torch.onnx.export(model, dummy, out_onnx, input_names=['image'], output_names=['embedding'],
                      dynamic_axes={'image': {0: 'batch'}, 'embedding': {0: 'batch'}}, opset_version=13)
    model_hash = sha256_of(out_onnx)
    brands = len({d['brand'] for d in designs})
    card = {
        'name': 'logo-embedder',
        'format': 'onnx (opset 13)',
        'input': {'name': 'image', 'shape': [None, 3, SIZE, SIZE], 'layout': 'NCHW', 'dtype': 'float32',
                  'normalisation': '(pixel / 255 - 0.5) / 0.5', 'picture': 'the service normaliser output resized'},
        'output': {'name': 'embedding', 'dimensions': DIM, 'l2_normalised': True},
        'architecture': '8 conv3x3+BN+ReLU layers (16-24-32-32-64-64-128-128, stride 2 every other), GeM pooling, linear',
        'parameters': sum(p.numel() for p in model.parameters()),
        'objective': f'NT-Xent (temperature {TAU}) between the registered file and a seller picture of it, with {DISTRACTORS} '
                     'pictures showing no logo whole (text, clutter, a bare product, a sliver at the edge) as negatives of every logo',
        'training': {'steps': steps, 'batch_designs': BATCH, 'batch_distractors': DISTRACTORS, 'optimiser': f'AdamW, warm-up 6% then cosine, max lr {max_lr}',
                     'first_batch': first_batch,
                     'budget_minutes': None if '--steps' in sys.argv else minutes,
                     'seed': SEED, 'threads': '1 (network) + 1 worker process (pictures)', 'seconds': round(seconds), 'machine': os.uname().machine,
                     'cpu_count': os.cpu_count(), 'torch': torch.__version__},
        'data': {'train_designs': len(designs), 'train_brands': brands, 'text_strips': len(texts),
                 'held_out': 'brands of the validation and test splits are never read (render-logos.ts)',
                 'sources': 'simple-icons 16.37.0 (CC0-1.0 icons only), devicon 2.17.0 (MIT)',
                 'train_png_sha256': data_hash.hexdigest()},
        'earlier_stages': earlier,
        'sha256': model_hash,
        'weights_sha256': sha256_of(weights),
    }
    json.dump(card, open(out_card, 'w'), indent=2)
    print(json.dumps(card['training']), flush=True)


if __name__ == '__main__':
    main()
