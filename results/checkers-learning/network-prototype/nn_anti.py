# A linear evaluation (the tapered features, squares, patterns) plus a small hidden layer on
# piece-square inputs; fitted by Adam on the training games, early-stopped on a validation
# fifth of them; the held-out games (every fifth) judge.
import numpy as np, sys, time
raw = np.fromfile('positions.bin', dtype='<i2').reshape(-1, 255)
game, ply, res, phase, side = (raw[:, i].astype(np.int64) for i in range(5))
F = raw[:, 5:5+242].astype(np.float32)
bb = raw[:, 247:255].astype(np.int64) & 0xffff
bits = [(bb[:, 2*i] | (bb[:, 2*i+1] << 16)).astype(np.uint32) for i in range(4)]
y = (res / 2.0).astype(np.float32)
held = (game % 5) == 4
valid = (game % 5) == 3
train = ~held & ~valid
share = (phase / 24.0).astype(np.float32)[:, None]
X0 = np.hstack([F * share, F * (1 - share)]) / 4.0
# piece-square inputs: 4 kinds x 32 squares, plus side to move, plus phase share
P = np.zeros((len(y), 129), np.float32)
for k in range(4):
    for s in range(32):
        P[:, 32*k + s] = (bits[k] >> s) & 1
P[:, 128] = side
H = int(sys.argv[1]) if len(sys.argv) > 1 else 32
Xh_in = np.hstack([P, share]).astype(np.float32)
Pf = P[:, :128].reshape(-1, 4, 32)[:, [2, 3, 0, 1], ::-1].reshape(-1, 128)
Xh_flip = np.hstack([Pf, 1 - P[:, 128:129], share]).astype(np.float32)
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
wd = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-5
def forward(idx):
    h1 = np.maximum(0, Xh_in[idx] @ params['W1'] + params['b1'])
    h2 = np.maximum(0, Xh_flip[idx] @ params['W1'] + params['b1'])
    z = X0[idx] @ params['w'] + (h1 - h2) @ params['v']
    return z, (h1, h2)
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
        grads = {'w': X0[idx].T @ g, 'c': np.zeros(1, np.float32), 'v': (h1 - h2).T @ g}
        gv = np.outer(g, params['v'])
        g1 = gv * (h1 > 0); g2 = gv * (h2 > 0)
        grads['W1'] = Xh_in[idx].T @ g1 - Xh_flip[idx].T @ g2; grads['b1'] = g1.sum(0) - g2.sum(0)
        step += 1
        for k in params:
            gk = grads[k] + (wd * params[k] if k in ('W1', 'v') else 0)
            m[k] = 0.9 * m[k] + 0.1 * gk; vv[k] = 0.999 * vv[k] + 0.001 * gk * gk
            params[k] -= lr * (m[k] / (1 - 0.9**step)) / (np.sqrt(vv[k] / (1 - 0.999**step)) + 1e-8)
    lv = loss_of(va); lh = loss_of(ho)
    print(f"H {H} epoch {epoch} train {loss_of(tr[:200000]):.5f} valid {lv:.5f} held {lh:.5f} {time.time()-t0:.0f}s", flush=True)
    if lv < best[0]:
        best = (lv, lh, epoch); np.savez('./net%d.npz' % H, **params)
    elif epoch - best[2] >= 3: break
    if epoch in (8, 16): lr *= 0.5
print(f"H {H} best valid {best[0]:.5f} at epoch {best[2]}: held {best[1]:.5f}")
