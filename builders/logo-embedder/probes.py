"""Step 3 of `npm run train:logos`: pictures that show no logo whole, for centring the embedder (centre.ts).

The same generator as training's distractors (augment.distractor_view: text alone, clutter, a bare product, a sliver
of a logo at the edge), with a seed of its own and the logos of the train split only, so no held-out brand is read.

Usage: python3 probes.py <cache-dir> <count> <out.u8>; writes count x 64 x 64 x 3 bytes (RGB, row-major).
"""
import json
import os
import random
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(__file__))
from augment import distractor_view  # noqa: E402

SEED = 424242
SIZE = 64


def main():
    cache, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    manifest = json.load(open(os.path.join(cache, 'manifest.json')))
    designs = [d for d in manifest['designs'] if d['split'] == 'train']
    rng = random.Random(SEED)
    logos = [Image.open(os.path.join(cache, d['png'])).convert('RGBA') for d in rng.sample(designs, 300)]
    text_dir = os.path.join(cache, 'text')
    texts = [Image.open(os.path.join(text_dir, f)).convert('RGBA') for f in sorted(os.listdir(text_dir))]
    pictures = np.zeros((count, SIZE, SIZE, 3), dtype=np.uint8)
    for i in range(count):
        pictures[i] = np.asarray(distractor_view(rng, SIZE, texts, logos), dtype=np.uint8)
    pictures.tofile(out)
    print(f'{count} probe pictures ({SIZE} x {SIZE}) written', flush=True)


if __name__ == '__main__':
    main()
