/**
 * L2-regularised logistic regression fitted by Newton's method (iteratively reweighted least squares) on
 * standardised features; the weights are returned for the raw features, so inference is one dot product.
 * Deterministic: the same data gives the same weights.
 */
export interface LogisticFit {
  intercept: number;
  weights: number[];
  iterations: number;
}

function solve(a: Float64Array[], b: Float64Array): Float64Array {
  // Cholesky: A is symmetric positive definite (X'WX + lambda I).
  const n = b.length;
  const l = a.map(() => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i]![j]!;
      for (let k = 0; k < j; k++) sum -= l[i]![k]! * l[j]![k]!;
      l[i]![j] = i === j ? Math.sqrt(Math.max(sum, 1e-12)) : sum / l[j]![j]!;
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= l[i]![k]! * y[k]!;
    y[i] = sum / l[i]![i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i]!;
    for (let k = i + 1; k < n; k++) sum -= l[k]![i]! * x[k]!;
    x[i] = sum / l[i]![i]!;
  }
  return x;
}

export function fitLogistic(
  rows: readonly Float64Array[],
  labels: readonly number[],
  lambda: number,
  maxIterations = 50,
): LogisticFit {
  const d = rows[0]!.length;
  const n = rows.length;
  const mean = new Float64Array(d);
  const scale = new Float64Array(d);
  for (const row of rows) for (let j = 0; j < d; j++) mean[j] = mean[j]! + row[j]! / n;
  for (const row of rows) for (let j = 0; j < d; j++) scale[j] = scale[j]! + (row[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j]!) || 1;
  // Column 0 is the intercept (not penalised), then the standardised features.
  const z = rows.map((row) => {
    const out = new Float64Array(d + 1);
    out[0] = 1;
    for (let j = 0; j < d; j++) out[j + 1] = (row[j]! - mean[j]!) / scale[j]!;
    return out;
  });
  let beta = new Float64Array(d + 1);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    const hessian = Array.from({ length: d + 1 }, () => new Float64Array(d + 1));
    const gradient = new Float64Array(d + 1);
    for (let i = 0; i < n; i++) {
      const x = z[i]!;
      let eta = 0;
      for (let j = 0; j <= d; j++) eta += beta[j]! * x[j]!;
      const p = 1 / (1 + Math.exp(-eta));
      const w = Math.max(p * (1 - p), 1e-9);
      const r = labels[i]! - p;
      for (let j = 0; j <= d; j++) {
        const xj = x[j]!;
        if (xj === 0) continue;
        gradient[j] = gradient[j]! + r * xj;
        const wx = w * xj;
        const row = hessian[j]!;
        for (let k = 0; k <= j; k++) row[k] = row[k]! + wx * x[k]!;
      }
    }
    for (let j = 0; j <= d; j++) for (let k = 0; k < j; k++) hessian[k]![j] = hessian[j]![k]!;
    for (let j = 1; j <= d; j++) {
      gradient[j] = gradient[j]! - lambda * beta[j]!;
      hessian[j]![j] = hessian[j]![j]! + lambda;
    }
    const step = solve(hessian, gradient);
    let change = 0;
    const next = new Float64Array(d + 1);
    for (let j = 0; j <= d; j++) {
      next[j] = beta[j]! + step[j]!;
      change = Math.max(change, Math.abs(step[j]!));
    }
    beta = next;
    if (change < 1e-8) break;
  }
  const weights = Array.from({ length: d }, (_, j) => beta[j + 1]! / scale[j]!);
  let intercept = beta[0]!;
  for (let j = 0; j < d; j++) intercept -= weights[j]! * mean[j]!;
  return { intercept, weights, iterations };
}

export function predict(fit: Pick<LogisticFit, 'intercept' | 'weights'>, row: Float64Array): number {
  let z = fit.intercept;
  for (let j = 0; j < row.length; j++) z += fit.weights[j]! * row[j]!;
  return 1 / (1 + Math.exp(-z));
}

export function logLoss(probabilities: readonly number[], labels: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < labels.length; i++) {
    const p = Math.min(Math.max(probabilities[i]!, 1e-12), 1 - 1e-12);
    sum -= labels[i]! ? Math.log(p) : Math.log(1 - p);
  }
  return sum / labels.length;
}
