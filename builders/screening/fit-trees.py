"""Fits the brand-use model's gradient-boosted trees (called by builders/train-screening-model.ts).

Input (a directory): train.f64 / validation.f64 / crossfit.f64 (rows of float64 features), train.y / validation.y /
crossfit.y (one byte per row, 0 or 1), train.fold / crossfit.fold (one byte per row: the row's cross-fitting fold;
255 in train.fold for a row in every fold's fit), meta.json ({"features": n, "seed": s, "folds": k}).
Output (stdout): one JSON object with the trees, the Platt scaling of their margin and what was chosen.

 1. For each tree depth and least leaf size, boost up to MAX_TREES trees (log loss, shrinkage, row subsampling,
    fixed seed) on train, from the train split's log-odds of a brand use. Larger leaves smooth the trees: the
    rule-made titles repeat patterns, and small leaves fit their accidents (validation log loss 0.0735 at 10,
    0.0722 at 30, 0.0699 at 60 on the same data).
 2. Keep the depth and leaf size with the lowest log loss on validation, and of their trees the fewest whose
    validation log loss is within TREE_TOLERANCE of that least loss: near its least the loss hardly moves from tree
    to tree, while every tree is walked for every match of every title (the engine's speed aim). (Boosting from a
    logistic regression's log-odds instead was tried: worse on validation, 0.0901 against 0.0826.)
 3. Fit BAGS - 1 more boosters of that shape from other seeds and average the boosters' margins (BAGS below: one).
 4. Cross-fitting: for each fold, trees of the chosen shape fitted on the train rows of the other folds score the
    cross-fit rows of that fold (train titles read as validation reads them), so every train brand gets a margin
    from trees that never saw it.
 5. Platt scaling on the validation margins and the cross-fit margins together: p = 1 / (1 + exp(-(a * margin + b))),
    so that a score reads as a probability. Validation alone holds about 1,100 titles; scaled on them alone, the
    cross-fit titles' log loss was worse than unscaled (0.0537 against 0.0516), scaled on the cross-fit titles alone,
    validation's was better (0.0399 against 0.0408).
 6. Check that the exported trees, walked as the TypeScript engine walks them, give sklearn's own margins.
The fits of steps 1, 3 and 4 run side by side, one a core (WORKERS); each has its own seed, so the trees do not
depend on how many run at once.
"""
import json
import os
import sys

from concurrent.futures import ProcessPoolExecutor

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression

DEPTHS = (3, 4)
MAX_TREES = 400
LEARNING_RATE = 0.1
SUBSAMPLE = 0.8
MIN_SAMPLES_LEAF = (30, 60, 120)
# Boosters of the chosen shape from as many seeds, their margins averaged. Two were tried: on the same validation
# matches, single boosters of two seeds put 0.43-0.55% of the matches on either side of 0.18 and 0.20-0.26% of
# 0.73, two averaged pairs 0.32% and 0.09% (log loss 0.0469 against 0.0472), but the engine walking twice the trees
# screened 37,500-40,900 titles per CPU second under tsx against 47,200 (aim 40,000): not kept. Three were tried
# when one booster screened about 83,000 titles per CPU second (model 2026-11-27-fcea8446): log loss after scaling
# 0.0398 on validation and 0.0544 on the cross-fit titles, against 0.0394 and 0.0543 for one booster (0.0392 and
# 0.0573 from another seed), and the engine fell to 48,600-51,300 titles per CPU second, a 1,000-title batch over
# HTTP to p50 162 ms (aim 150): not kept.
BAGS = 1
# Boosters fitted at once, one a core: each fit is a single thread, and every fit is seeded, so the trees are the same
# however many run together.
WORKERS = max(1, min(4, os.cpu_count() or 1))
# The fewest trees whose validation log loss is at most this much above the least (relative). At the least (385
# trees, model 43261a0f) the engine screened 40,294-43,519 titles per CPU second against the aim of 40,000.
TREE_TOLERANCE = 0.01


def load(directory, name, features):
    x = np.fromfile(os.path.join(directory, f"{name}.f64"), dtype="<f8").reshape(-1, features)
    y = np.fromfile(os.path.join(directory, f"{name}.y"), dtype=np.uint8).astype(np.int64)
    return x, y


def folds_of(directory, name):
    return np.fromfile(os.path.join(directory, f"{name}.fold"), dtype=np.uint8).astype(np.int64)


def booster(trees, depth, leaf, seed):
    """Gradient-boosted trees of one shape, with the fixed shrinkage and row subsampling."""
    return GradientBoostingClassifier(
        n_estimators=trees,
        learning_rate=LEARNING_RATE,
        max_depth=depth,
        subsample=SUBSAMPLE,
        min_samples_leaf=leaf,
        random_state=seed,
    )


def weights_of(directory, name, rows):
    """Each row's weight (name.w, float64; the trainer's thinned register negatives stand for several): 1 without."""
    path = os.path.join(directory, f"{name}.w")
    return np.fromfile(path, dtype="<f8") if os.path.exists(path) else np.ones(rows)


def fit_one(job):
    """One booster fitted (a job for a worker process): (trees, depth, leaf, seed, x, y, w)."""
    trees, depth, leaf, seed, x, y, w = job
    return booster(trees, depth, leaf, seed).fit(x, y, sample_weight=w)


def log_loss(y, margin):
    p = 1.0 / (1.0 + np.exp(-margin))
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def export_tree(tree):
    t = tree.tree_
    leaf = t.children_left == -1
    return {
        "feature": [int(f) if not l else -1 for f, l in zip(t.feature, leaf)],
        "threshold": [float(v) if not l else 0.0 for v, l in zip(t.threshold, leaf)],
        "left": [int(v) for v in t.children_left],
        "right": [int(v) for v in t.children_right],
        "value": [float(v) for v in t.value[:, 0, 0]],
    }


def scaled(tree, factor):
    return {**tree, "value": [v * factor for v in tree["value"]]}


def walk(trees, init, rate, x):
    """The margin as the engine computes it: float32(x) <= threshold goes left (sklearn's trees read float32)."""
    out = np.full(x.shape[0], init)
    x = x.astype(np.float32).astype(np.float64)
    for tree in trees:
        feature, threshold = tree["feature"], tree["threshold"]
        left, right, value = tree["left"], tree["right"], tree["value"]
        for r in range(x.shape[0]):
            node = 0
            while left[node] != -1:
                node = left[node] if x[r, feature[node]] <= threshold[node] else right[node]
            out[r] += rate * value[node]
    return out


def main():
    directory = sys.argv[1]
    meta = json.load(open(os.path.join(directory, "meta.json")))
    features, seed = meta["features"], meta["seed"]
    x_train, y_train = load(directory, "train", features)
    x_val, y_val = load(directory, "validation", features)
    x_cross, y_cross = load(directory, "crossfit", features)
    fold_train, fold_cross = folds_of(directory, "train"), folds_of(directory, "crossfit")
    w_train = weights_of(directory, "train", len(y_train))

    tried, best = [], None
    # meta.json may name the one shape to fit ("shape": [depth, leaf]): the trainer's --shape, for the marketplace
    # hold-out models, which take the shipped model's shape instead of choosing among six.
    shapes = [tuple(meta["shape"])] if "shape" in meta else [(depth, leaf) for depth in DEPTHS for leaf in MIN_SAMPLES_LEAF]
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        models = list(pool.map(fit_one, [(MAX_TREES, depth, leaf, seed, x_train, y_train, w_train) for depth, leaf in shapes]))
    for (depth, leaf), model in zip(shapes, models):
        losses = [log_loss(y_val, m.ravel()) for m in model.staged_decision_function(x_val)]
        least = float(np.min(losses))
        n = next(k for k, value in enumerate(losses, start=1) if value <= least * (1 + TREE_TOLERANCE))
        tried.append({"depth": depth, "minSamplesLeaf": leaf, "trees": n, "validationLogLoss": round(losses[n - 1], 5)})
        print(
            f"depth {depth}, leaves of {leaf}+: {n} trees (least loss {least:.4f} at {int(np.argmin(losses)) + 1}),"
            f" validation log loss {losses[n - 1]:.4f}",
            file=sys.stderr,
        )
        if best is None or least < best[5]:
            best = (model, n, losses[n - 1], depth, leaf, least)

    model, n, loss, depth, leaf, _ = best
    # BAGS boosters of the chosen shape, each from its own seed, their margins averaged: each tree's leaves divided
    # by BAGS, so the engine's sum over all the trees is the mean of the boosters' margins.
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        boosters = [model] + list(
            pool.map(fit_one, [(n, depth, leaf, seed + k, x_train, y_train, w_train) for k in range(1, BAGS)])
        )
    trees = [scaled(export_tree(b.estimators_[i, 0]), 1.0 / BAGS) for b in boosters for i in range(n)]
    init = float(model._raw_predict_init(x_val[:1])[0, 0])
    margin_val = walk(trees, init, LEARNING_RATE, x_val)
    reference = np.mean(
        [list(model.staged_decision_function(x_val))[n - 1].ravel()]
        + [b.decision_function(x_val).ravel() for b in boosters[1:]],
        axis=0,
    )
    if BAGS > 1:
        loss = log_loss(y_val, reference)
    worst = float(np.max(np.abs(margin_val - reference)))
    if worst > 1e-6:
        raise SystemExit(f"exported trees disagree with sklearn by {worst}")

    # Each fold's margins from BAGS boosters as the shipped trees are made: the scaling and the thresholds are fitted
    # on these margins, so they must vary as little as the shipped margins do.
    margin_cross = np.zeros(len(y_cross))
    jobs = [(k, bag) for k in range(meta["folds"]) for bag in range(BAGS)]
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        folds = list(
            pool.map(
                fit_one,
                [
                    (n, depth, leaf, seed + bag, x_train[fold_train != k], y_train[fold_train != k], w_train[fold_train != k])
                    for k, bag in jobs
                ],
            )
        )
    for (k, _), fold in zip(jobs, folds):
        margin_cross[fold_cross == k] += fold.decision_function(x_cross[fold_cross == k]) / BAGS
    for k in range(meta["folds"]):
        print(f"cross-fit fold {k}: {int(np.sum(fold_cross == k))} rows", file=sys.stderr)

    def platt_of(margins, labels):
        fit = LogisticRegression(C=1e6, solver="lbfgs").fit(margins.reshape(-1, 1), labels)
        return float(fit.coef_[0, 0]), float(fit.intercept_[0])

    a, b = platt_of(np.concatenate([margin_val, margin_cross]), np.concatenate([y_val, y_cross]))
    calibrated = log_loss(y_val, a * margin_val + b)
    cross_checked = {}
    if len(y_cross) > 0:
        # Each half scaled as fitted on the other: the figures that say whether the scaling holds on titles it never
        # saw. (No cross-fit rows: the trainer's --no-cross-fit, scaling on validation alone.)
        a_cross, b_cross = platt_of(margin_cross, y_cross)
        a_val, b_val = platt_of(margin_val, y_val)
        cross_checked = {
            "validationScaledOnCrossFit": round(log_loss(y_val, a_cross * margin_val + b_cross), 5),
            "crossFitLogLoss": round(log_loss(y_cross, margin_cross), 5),
            "crossFitScaledOnValidation": round(log_loss(y_cross, a_val * margin_cross + b_val), 5),
        }
    print(
        f"chosen: depth {depth}, leaves of {leaf}+, {n} trees x {BAGS} boosters; Platt a {a:.4f} b {b:.4f}: validation"
        f" log loss {loss:.4f} -> {calibrated:.4f}; {json.dumps(cross_checked)}",
        file=sys.stderr,
    )
    json.dump(
        {
            "init": init,
            "learningRate": LEARNING_RATE,
            "trees": trees,
            "platt": {"a": a, "b": b},
            "chosen": {"depth": depth, "minSamplesLeaf": leaf, "trees": n, "validationLogLoss": round(loss, 5), "calibratedLogLoss": round(calibrated, 5), **cross_checked},
            "crossFitMargins": [float(m) for m in margin_cross],
            "tried": tried,
            "params": {"learningRate": LEARNING_RATE, "subsample": SUBSAMPLE, "minSamplesLeaf": list(MIN_SAMPLES_LEAF), "maxTrees": MAX_TREES, "treeTolerance": TREE_TOLERANCE, "seed": seed, "bags": BAGS, "folds": meta["folds"]},
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
