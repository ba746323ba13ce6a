import numpy as np, sys, time
from scipy.optimize import minimize
raw = np.fromfile('positions.bin', dtype='<i2').reshape(-1, 255)
game, ply, res, phase, side = (raw[:, i].astype(np.int64) for i in range(5))
F = raw[:, 5:5+242].astype(np.float32)
bb = raw[:, 247:255].astype(np.int64) & 0xffff
bits = [bb[:, 2*i] | (bb[:, 2*i+1] << 16) for i in range(4)]  # bm bk wm wk
y = res / 2.0
held = (game % 5) == 4
def popcount(x):
    x = x.astype(np.uint32); c = np.zeros(len(x), np.int64)
    for i in range(32): c += (x >> i) & 1
    return c
pieces = sum(popcount(b) for b in bits)
kings = popcount(bits[1]) + popcount(bits[3])
share = (phase / 24.0).astype(np.float32)[:, None]
def tapered(X):
    return np.hstack([X * share, X * (1 - share)])
def fit(X, pen, name, ridge=0.001, tiny=1e-7):
    Xt, yt, Xh, yh = X[~held], y[~held], X[held], y[held]
    n = len(yt)
    lam = np.where(pen, ridge, tiny).astype(np.float64)
    def f(w):
        z = Xt @ w.astype(np.float32)
        p = 1 / (1 + np.exp(-z))
        loss = np.mean(np.logaddexp(0, z) - yt * z) + np.sum(lam * w * w)
        g = (Xt.T @ (p - yt).astype(np.float32)) / n + 2 * lam * w
        return loss, g.astype(np.float64)
    t = time.time()
    r = minimize(f, np.zeros(X.shape[1]), jac=True, method='L-BFGS-B', options={'maxiter': 2000})
    z = Xh @ r.x.astype(np.float32)
    hl = np.mean(np.logaddexp(0, z) - yh * z)
    zt = Xt @ r.x.astype(np.float32)
    tl = np.mean(np.logaddexp(0, zt) - yt * zt)
    print(f"{name}: cols {X.shape[1]} train {tl:.5f} held {hl:.5f} iters {r.nit} {time.time()-t:.0f}s", flush=True)
    return r.x
base_pen = np.array([False]*14 + [True]*228)
X0 = tapered(F / 1.0)
pen0 = np.concatenate([base_pen, base_pen])
if 'base' in sys.argv:
    fit(X0, pen0, 'base (features, squares, patterns; tapered)')
buckets = [ (kings == 0) & (pieces > 10), (kings > 0) & (pieces > 10), (pieces <= 10) & (pieces > 6), pieces <= 6 ]
print('bucket sizes', [int(b.sum()) for b in buckets], flush=True)
if 'buckets' in sys.argv:
    # the tapered base plus, for each bucket, a deviation of every weight (penalised)
    parts = [X0] + [F * b[:, None].astype(np.float32) for b in buckets]
    X = np.hstack(parts)
    pen = np.concatenate([pen0] + [np.ones(242, bool)] * 4)
    for ridge in [0.001, 0.0003]:
        fit(X, pen, f'buckets ridge {ridge}', ridge=ridge)
if 'bucketsfeat' in sys.argv:
    # deviations of the 14 features only
    parts = [X0] + [F[:, :14] * b[:, None].astype(np.float32) for b in buckets]
    X = np.hstack(parts)
    pen = np.concatenate([pen0] + [np.zeros(14, bool)] * 4)
    fit(X, pen, 'buckets of the 14 features')
if 'split' in sys.argv:
    w = fit(X0, pen0, 'base again')
    net = np.load('./net32.npz')
    Xh_in = np.hstack([np.zeros((len(y), 0))])
    P = np.zeros((len(y), 129), np.float32)
    for k in range(4):
        for s in range(32):
            P[:, 32*k + s] = (bits[k].astype(np.uint32) >> s) & 1
    P[:, 128] = side
    Pf = P[:, :128].reshape(-1, 4, 32)[:, [2, 3, 0, 1], ::-1].reshape(-1, 128)
    A = np.hstack([P, share]); B = np.hstack([Pf, 1 - P[:, 128:129], share])
    zn = (X0 / 4.0) @ net['w'] + (np.maximum(0, A @ net['W1'] + net['b1']) - np.maximum(0, B @ net['W1'] + net['b1'])) @ net['v']
    zl = X0 @ w.astype(np.float32)
    for name, mask in [('<=5', pieces <= 5), ('6', pieces == 6), ('7-10', (pieces >= 7) & (pieces <= 10)), ('11-16', (pieces >= 11) & (pieces <= 16)), ('17+', pieces >= 17), ('ply>=40 & >=7 pieces', (ply >= 40) & (pieces >= 7))]:
        m = held & mask
        ll = lambda z: float(np.mean(np.logaddexp(0, z[m]) - y[m] * z[m]))
        print(f"held {name}: {int(m.sum())} positions, linear {ll(zl):.5f} network {ll(zn):.5f}", flush=True)
