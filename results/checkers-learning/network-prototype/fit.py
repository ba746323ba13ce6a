# Linear fits by L-BFGS on four fifths of the games, judged on the fifth `checkers learn`
# holds out: `base` (the shipped layout), `buckets` and `bucketsfeat` (every weight, or the
# 14 features' only, again in four phases of the game), `split` (the held-out loss by pieces
# on the board, the linear fit against the network `nn.py 32 turned` saved).
import numpy as np, sys, time
from scipy.optimize import minimize
import data
from data import F, held, ply, pieces, kings, tapered as X0
y = data.y.astype(np.float64)
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
pen0 = np.concatenate([base_pen, base_pen])
if 'base' in sys.argv or 'split' in sys.argv:
    base_weights = fit(X0, pen0, 'base (features, squares, patterns; tapered)')
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
    net = np.load('./net32.npz')
    position, turned = data.network_inputs()
    zn = (X0 / 4.0) @ net['w'] + (data.hidden(position, net) - data.hidden(turned, net)) @ net['v']
    zl = X0 @ base_weights.astype(np.float32)
    for name, mask in [('<=5', pieces <= 5), ('6', pieces == 6), ('7-10', (pieces >= 7) & (pieces <= 10)), ('11-16', (pieces >= 11) & (pieces <= 16)), ('17+', pieces >= 17), ('ply>=40 & >=7 pieces', (ply >= 40) & (pieces >= 7))]:
        m = held & mask
        ll = lambda z: float(np.mean(np.logaddexp(0, z[m]) - y[m] * z[m]))
        print(f"held {name}: {int(m.sum())} positions, linear {ll(zl):.5f} network {ll(zn):.5f}", flush=True)
