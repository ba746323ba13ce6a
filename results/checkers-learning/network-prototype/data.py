# The positions `dump` wrote (positions.bin: one row of little-endian i16 a quiet position:
# game, ply, result×2, phase, Black to move, the 242 raw features, the four bitboards as
# two u16 each) and the columns both fits read.
import numpy as np

raw = np.fromfile('positions.bin', dtype='<i2').reshape(-1, 255)
game, ply, res, phase, side = (raw[:, i].astype(np.int64) for i in range(5))
F = raw[:, 5:5+242].astype(np.float32)
bb = raw[:, 247:255].astype(np.int64) & 0xffff
# Black men, Black kings, White men, White kings; bit s is square s + 1.
bits = [(bb[:, 2*i] | (bb[:, 2*i+1] << 16)).astype(np.uint32) for i in range(4)]
y = (res / 2.0).astype(np.float32)
# `checkers learn` holds out every fifth game.
held = (game % 5) == 4
share = (phase / 24.0).astype(np.float32)[:, None]
# The linear evaluation's columns: each raw feature times the opening's share, then times the
# endgame's (the order `LearnedWeights::columns_with_patterns` uses).
tapered = np.hstack([F * share, F * (1 - share)])
pieces = sum(((b[:, None] >> np.arange(32, dtype=np.uint32)) & 1).sum(1).astype(np.int64) for b in bits)
kings = sum(((b[:, None] >> np.arange(32, dtype=np.uint32)) & 1).sum(1).astype(np.int64) for b in bits[1::2])

def network_inputs():
    """The network's 130 inputs of every position and of the same position turned round (the
    colours swapped, square s read as 33 − s, the other side to move)."""
    P = np.zeros((len(y), 128), np.float32)
    for k in range(4):
        for s in range(32):
            P[:, 32*k + s] = (bits[k] >> s) & 1
    turned = P.reshape(-1, 4, 32)[:, [2, 3, 0, 1], ::-1].reshape(-1, 128)
    to_move = side.astype(np.float32)[:, None]
    return (np.hstack([P, to_move, share]).astype(np.float32),
            np.hstack([turned, 1 - to_move, share]).astype(np.float32))

def hidden(inputs, params):
    return np.maximum(0, inputs @ params['W1'] + params['b1'])
