import numpy as np, sys
H = int(sys.argv[1]); p = np.load('./net%d.npz' % H)
logits = p['w'] / 4.0
ppl = 48.8
print('points a logit', ppl)
with open('./linear%d.txt' % H, 'w') as f:
    f.write(' '.join(repr(float(x)) for x in [ppl] + list(logits)))
with open('./net%d.txt' % H, 'w') as f:
    f.write(f"{H} {ppl}\n")
    for row in p['W1']: f.write(' '.join(repr(float(x)) for x in row) + '\n')
    f.write(' '.join(repr(float(x)) for x in p['b1']) + '\n')
    f.write(' '.join(repr(float(x)) for x in p['v']) + '\n')
