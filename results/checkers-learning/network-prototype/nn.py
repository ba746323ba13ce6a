# A linear evaluation (the tapered features, squares, patterns) plus a small hidden layer on
# piece-square inputs; fitted by Adam on the training games, early-stopped on a validation
# fifth of them; the held-out games (every fifth) judge. `nn.py H` applies the layer to the
# position alone (with a constant term); `nn.py H turned` subtracts its value on the position
# turned round (no constant), so that the evaluation changes sign with the colours, and
# saves the best epoch's weights to netH.npz.
import numpy as np, sys, time
from data import y, held, game, tapered, network_inputs, hidden
valid = (game % 5) == 3
train = ~held & ~valid
X0 = tapered / 4.0
Xh_in, Xh_turned = network_inputs()
turned = 'turned' in sys.argv
H = int(sys.argv[1]) if len(sys.argv) > 1 else 32
rng = np.random.default_rng(1)
nl = X0.shape[1]; ni = Xh_in.shape[1]
params = {
 'w': np.zeros(nl, np.float32), 'c': np.zeros(1, np.float32),
 'W1': (rng.standard_normal((ni, H)) * np.sqrt(2 / 24)).astype(np.float32), 'b1': np.zeros(H, np.float32),
 'v': (rng.standard_normal(H) * 0.01).astype(np.float32),
}
if H == 0:
    params['v'] = np.zeros(0, np.float32); params['W1'] = np.zeros((ni, 0), np.float32); params['b1'] = np.zeros(0, np.float32)
m = {k: np.zeros_like(p) for k, p in params.items()}; vv = {k: np.zeros_like(p) for k, p in params.items()}
wd = 1e-5
def forward(idx):
    h1 = hidden(Xh_in[idx], params)
    if not turned:
        return X0[idx] @ params['w'] + params['c'] + h1 @ params['v'], (h1, None)
    h2 = hidden(Xh_turned[idx], params)
    return X0[idx] @ params['w'] + (h1 - h2) @ params['v'], (h1, h2)
def loss_of(idx):
    out = []
    for s in range(0, len(idx), 100000):
        z, _ = forward(idx[s:s+100000]); t = y[idx[s:s+100000]]
        out.append(np.logaddexp(0, z) - t * z)
    return float(np.mean(np.concatenate(out)))
tr = np.nonzero(train)[0]; va = np.nonzero(valid)[0]; ho = np.nonzero(held)[0]
lr = 0.002; step = 0; best = (9, None, -1); t0 = time.time()
for epoch in range(40):
    rng.shuffle(tr)
    for s in range(0, len(tr), 1024):
        idx = tr[s:s+1024]
        z, h = forward(idx)
        g = (1 / (1 + np.exp(-z)) - y[idx]) / len(idx)
        h1, h2 = h
        gv = np.outer(g, params['v'])
        g1 = gv * (h1 > 0)
        if turned:
            g2 = gv * (h2 > 0)
            grads = {'w': X0[idx].T @ g, 'c': np.zeros(1, np.float32), 'v': (h1 - h2).T @ g,
                     'W1': Xh_in[idx].T @ g1 - Xh_turned[idx].T @ g2, 'b1': g1.sum(0) - g2.sum(0)}
        else:
            grads = {'w': X0[idx].T @ g, 'c': np.array([g.sum()], np.float32), 'v': h1.T @ g,
                     'W1': Xh_in[idx].T @ g1, 'b1': g1.sum(0)}
        step += 1
        for k in params:
            gk = grads[k] + (wd * params[k] if k in ('W1', 'v') else 0)
            m[k] = 0.9 * m[k] + 0.1 * gk; vv[k] = 0.999 * vv[k] + 0.001 * gk * gk
            params[k] -= lr * (m[k] / (1 - 0.9**step)) / (np.sqrt(vv[k] / (1 - 0.999**step)) + 1e-8)
    lv = loss_of(va); lh = loss_of(ho)
    print(f"H {H} epoch {epoch} train {loss_of(tr[:200000]):.5f} valid {lv:.5f} held {lh:.5f} {time.time()-t0:.0f}s", flush=True)
    if lv < best[0]:
        best = (lv, lh, epoch)
        if turned:
            np.savez('./net%d.npz' % H, **params)
    elif epoch - best[2] >= 3: break
    if epoch in (8, 16): lr *= 0.5
print(f"H {H} best valid {best[0]:.5f} at epoch {best[2]}: held {best[1]:.5f}")
