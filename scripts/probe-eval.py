#!/usr/bin/env python3
"""How much a nonlinear evaluation could learn from the same positions: an offline probe.

    scripts/probe-eval.py [--rule R] [--k K] [--score-share X] [--epochs N] [--hidden H]
                          [--threads T] [--seed S] SAMPLES_DIR...

Reads the sample files `wuzi-tune extract` writes (the `WZS2` layout, see src/tune/samples.rs)
and fits two models of one rule's positions to the same targets as `wuzi-tune fit` (the game's
result for the mover, blended with the mover's search score at --score-share, wuzi's scores
read through sigmoid(K * score) and Rapfi's through sigmoid(score / 250)):

- linear: one weight per shape code of the mover's cells, one per shape code of the
  opponent's, one per threat state (`wuzi-tune fit --model split` without its prior);
- network: the same linear part plus a small network on top. Each side's cells are summed
  into an embedding of H numbers per side (as the cell sums are kept now, a sum that can be
  updated as stones are played), the threat state into another H, each clipped to 0..1; a
  hidden layer of 32 clipped units reads them.

A tenth of the games (seeded) is held out, and each epoch prints both losses (mean binary
cross-entropy against the targets, whose own entropy is printed first as the floor). A lower
held-out loss says what the form can learn, not that it plays better (E-465, E-483); the
probe says whether a nonlinear evaluation is worth building (E-487).

Needs numpy and torch (`pip install numpy torch`); they are offline tools, not the engine's.
"""
import argparse
import glob
import os
import struct
import sys

SHAPE_CODES = 715
THREAT_STATES = 128
RULE_CODES = {"freestyle": 0, "standard": 1, "renju": 4}
RAPFI_SCALE = 250.0
RAPFI_MATE = 30000


def read_samples(dirs, rule_code, k, score_share):
    """(features as (mover codes, opponent codes, threat state) triples, targets, game ids)."""
    import math

    rows, targets, games = [], [], []
    game_id = 0
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.samples"))):
            data = open(path, "rb").read()
            if data[:4] != b"WZS2":
                sys.exit(f"{path}: not a WZS2 sample file")
            i = 4
            while i < len(data):
                _, rule, _, _, black_halves, count = struct.unpack_from("<IBBBBH", data, i)
                i += 10
                game_id += 1
                for _ in range(count):
                    _, mover, state, kind, score, n_mover, n_opp = struct.unpack_from(
                        "<HBBBiHH", data, i)
                    i += 13
                    entries = struct.unpack_from(f"<{2 * (n_mover + n_opp)}H", data, i)
                    i += 4 * (n_mover + n_opp)
                    if rule != rule_code:
                        continue
                    black = black_halves / 2.0
                    result = black if mover == 0 else 1.0 - black
                    if kind == 1:
                        p = 1.0 / (1.0 + math.exp(-k * score))
                    elif kind == 2:
                        v = max(-RAPFI_MATE, min(RAPFI_MATE, score))
                        p = 1.0 / (1.0 + math.exp(-v / RAPFI_SCALE))
                    else:
                        p = None
                    target = result if p is None else (1 - score_share) * result + score_share * p
                    codes = [(entries[2 * j], entries[2 * j + 1]) for j in range(n_mover + n_opp)]
                    rows.append((codes[:n_mover], codes[n_mover:], state))
                    targets.append(target)
                    games.append(game_id)
    return rows, targets, games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--rule", default="freestyle", choices=sorted(RULE_CODES))
    ap.add_argument("--k", type=float, default=0.0014,
                    help="scale of wuzi's scores (the fit prints its k per rule)")
    ap.add_argument("--score-share", type=float, default=0.5)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    opts = ap.parse_args()

    import numpy as np
    import torch

    torch.set_num_threads(opts.threads)
    torch.manual_seed(opts.seed)
    rows, targets, games = read_samples(opts.dirs, RULE_CODES[opts.rule], opts.k,
                                        opts.score_share)
    if not rows:
        sys.exit(f"no {opts.rule} positions in {opts.dirs}")
    width = 2 * SHAPE_CODES + THREAT_STATES
    x = np.zeros((len(rows), width), dtype=np.float32)
    for r, (mine, theirs, state) in enumerate(rows):
        for code, count in mine:
            x[r, code] += count
        for code, count in theirs:
            x[r, SHAPE_CODES + code] += count
        x[r, 2 * SHAPE_CODES + state] = 1.0
    t = np.array(targets, dtype=np.float32)
    g = np.array(games)
    rng = np.random.default_rng(opts.seed)
    ids = np.unique(g)
    held = np.isin(g, rng.choice(ids, size=len(ids) // 10, replace=False))
    xt, tt = torch.tensor(x[~held]), torch.tensor(t[~held])
    xh, th = torch.tensor(x[held]), torch.tensor(t[held])
    print(f"{opts.rule}: {len(tt)} positions trained on, {len(th)} held out")

    def entropy(p):
        p = p.clamp(1e-6, 1 - 1e-6)
        return (-(p * p.log() + (1 - p) * (1 - p).log())).mean().item()

    print(f"targets' own entropy: {entropy(tt):.4f} / held out {entropy(th):.4f}")
    bce = torch.nn.functional.binary_cross_entropy_with_logits

    class Linear(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(width, 1)

        def forward(self, v):
            return self.linear(v).squeeze(1)

    class Network(Linear):
        def __init__(self, h):
            super().__init__()
            self.mover = torch.nn.Linear(SHAPE_CODES, h, bias=False)
            self.opponent = torch.nn.Linear(SHAPE_CODES, h, bias=False)
            self.threat = torch.nn.Linear(THREAT_STATES, h)
            self.hidden = torch.nn.Linear(3 * h, 32)
            self.out = torch.nn.Linear(32, 1)

        def forward(self, v):
            m = v[:, :SHAPE_CODES] / 8
            o = v[:, SHAPE_CODES:2 * SHAPE_CODES] / 8
            s = v[:, 2 * SHAPE_CODES:]
            a = torch.cat([self.mover(m), self.opponent(o), self.threat(s)], 1).clamp(0, 1)
            return self.out(self.hidden(a).clamp(0, 1)).squeeze(1) + super().forward(v)

    for name, model, rate in [("linear", Linear(), 3e-3),
                              ("network", Network(opts.hidden), 1e-3)]:
        opt = torch.optim.Adam(model.parameters(), lr=rate)
        for epoch in range(opts.epochs):
            perm = torch.randperm(len(tt))
            for i in range(0, len(tt), 2048):
                idx = perm[i:i + 2048]
                loss = bce(model(xt[idx]), tt[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
            with torch.no_grad():
                train, held_out = bce(model(xt), tt).item(), bce(model(xh), th).item()
            print(f"{name} epoch {epoch + 1}: {train:.4f} / held out {held_out:.4f}", flush=True)


if __name__ == "__main__":
    main()
