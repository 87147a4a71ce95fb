"""A masked PPO agent in numpy (no torch), trained in seat 0 of ``liverpool/Liverpool-v0``, and an
honest evaluation of it against bots and a three-line rule.

    .venv/bin/pip install -e '.[rl]'
    nice -n 10 .venv/bin/python examples/train_ppo.py --cpu-minutes 15          # train, then evaluate
    nice -n 10 .venv/bin/python examples/train_ppo.py --evaluate-only           # evaluate saved weights

Training: ``--envs`` copies of the environment (``liverpool.env.make_vec``, Gymnasium's vector
environment with same-step autoreset), 4 players, the ``liverpool`` preset, the learner in seat 0
against ``--opponents`` (default three ``greedy`` bots), scaled observations. The policy and the
value function share two hidden layers of ``--hidden`` tanh units; the policy's logits are masked
by ``action_mask`` (masked actions get probability 0, in sampling and in the gradient). Rewards
are minus the learner's points each deal, / 100; advantages by GAE; PPO's clipped objective with
an entropy bonus; Adam. Training stops after ``--cpu-minutes`` of this process's CPU time.

Evaluation (``--eval-games`` games per cell, the same seeds for every policy): seat 0 is played by
the trained policy (its most likely legal action), by the three-line rule (lay down with the
solver's macro when it can, else lay off, else a random legal action) and by a uniformly random
legal action, against three ``random``, three ``greedy`` and three ``strong`` bots. Reported: the
learner's win rate (Wilson 95%) and mean points per deal (Student t 95%).

Writes ``artifacts/ppo_policy.npz``, ``artifacts/ppo_curve.csv``, ``artifacts/ppo_curve.png`` and
``artifacts/ppo_eval.json``; prints the evaluation as a Markdown table.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import liverpool.env  # registers liverpool/Liverpool-v0
from liverpool.env import LiverpoolGymEnv, make_vec
from liverpool.sim.stats import mean_ci, wilson_interval

ARTIFACTS = Path("artifacts")
REWARD_SCALE = 100.0
DEALS = len(liverpool.RuleSet.preset("liverpool").schedule)


class Net:
    """x -> tanh -> tanh -> (masked logits, value); Adam on the PPO loss."""

    def __init__(self, n_in: int, n_out: int, hidden: int, seed: int, lr: float) -> None:
        rng = np.random.default_rng(seed)

        def layer(a: int, b: int, gain: float) -> np.ndarray:
            return (rng.normal(0, 1, (a, b)) * gain / math.sqrt(a)).astype(np.float32)

        self.p: dict[str, np.ndarray] = {
            "W1": layer(n_in, hidden, 1.0),
            "b1": np.zeros(hidden, np.float32),
            "W2": layer(hidden, hidden, 1.0),
            "b2": np.zeros(hidden, np.float32),
            "Wp": layer(hidden, n_out, 0.01),
            "bp": np.zeros(n_out, np.float32),
            "Wv": layer(hidden, 1, 1.0),
            "bv": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0
        self.lr = lr

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, ...]:
        p = self.p
        h1 = np.tanh(x @ p["W1"] + p["b1"])
        h2 = np.tanh(h1 @ p["W2"] + p["b2"])
        z = h2 @ p["Wp"] + p["bp"]
        z = np.where(mask, z, -np.inf)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        probs = e / e.sum(axis=1, keepdims=True)
        value = (h2 @ p["Wv"] + p["bv"])[:, 0]
        return h1, h2, probs, value

    def act(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> tuple[np.ndarray, ...]:
        _, _, probs, value = self.forward(x, mask)
        if rng is None:
            actions = probs.argmax(axis=1)
        else:
            cum = probs.cumsum(axis=1)
            u = rng.random(len(probs))[:, None] * cum[:, -1:]
            actions = np.minimum((cum < u).sum(axis=1), probs.shape[1] - 1)
        logp = np.log(probs[np.arange(len(actions)), actions] + 1e-12)
        return actions, logp, value

    def update(
        self,
        x: np.ndarray,
        mask: np.ndarray,
        a: np.ndarray,
        old_logp: np.ndarray,
        adv: np.ndarray,
        ret: np.ndarray,
        clip: float,
        ent_coef: float,
        vf_coef: float,
    ) -> dict[str, float]:
        p = self.p
        n = len(a)
        h1, h2, probs, value = self.forward(x, mask)
        rows = np.arange(n)
        logp = np.log(probs[rows, a] + 1e-12)
        ratio = np.exp(logp - old_logp)
        # d(clipped objective)/d(logp): ratio * adv where the unclipped term is the one in force
        active = ((adv >= 0) & (ratio < 1 + clip)) | ((adv < 0) & (ratio > 1 - clip))
        g = np.where(active, ratio * adv, 0.0) / n
        dz = -g[:, None] * (-probs)
        dz[rows, a] -= g
        logs = np.where(probs > 0, np.log(np.where(probs > 0, probs, 1.0)), 0.0)
        entropy = -(probs * logs).sum(axis=1)
        # minimise -ent_coef * H: dH/dz_j = -p_j (log p_j + H)
        dz += ent_coef * probs * (logs + entropy[:, None]) / n
        dv = vf_coef * (value - ret) / n
        grads = {"Wp": h2.T @ dz, "bp": dz.sum(0), "Wv": h2.T @ dv[:, None], "bv": dv.sum(keepdims=True)}
        dh2 = (dz @ p["Wp"].T + dv[:, None] @ p["Wv"].T) * (1 - h2 * h2)
        grads |= {"W2": h1.T @ dh2, "b2": dh2.sum(0)}
        dh1 = (dh2 @ p["W2"].T) * (1 - h1 * h1)
        grads |= {"W1": x.T @ dh1, "b1": dh1.sum(0)}
        norm = math.sqrt(sum(float((gr * gr).sum()) for gr in grads.values()))
        scale = min(1.0, 0.5 / (norm + 1e-8))
        self.t += 1
        for k, gr in grads.items():
            gr = gr * scale
            self.m[k] = 0.9 * self.m[k] + 0.1 * gr
            self.v[k] = 0.999 * self.v[k] + 0.001 * gr * gr
            mhat = self.m[k] / (1 - 0.9**self.t)
            vhat = self.v[k] / (1 - 0.999**self.t)
            p[k] -= (self.lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)
        clipped = float(np.mean(np.abs(ratio - 1) > clip))
        return {"entropy": float(entropy.mean()), "value_loss": float(np.mean((value - ret) ** 2)), "clipped": clipped}

    def save(self, path: Path) -> None:
        np.savez(path, **self.p)

    @classmethod
    def load(cls, path: Path, lr: float = 3e-4) -> Net:
        data = np.load(path)
        net = cls.__new__(cls)
        net.p = {k: data[k] for k in data.files}
        net.m = {k: np.zeros_like(v) for k, v in net.p.items()}
        net.v = {k: np.zeros_like(v) for k, v in net.p.items()}
        net.t, net.lr = 0, lr
        return net


def train(args: argparse.Namespace) -> Net:
    envs = make_vec(
        args.envs,
        vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP},
        opponents=args.opponents.split(","),
        players=4,
        rules="liverpool",
    )
    obs, _ = envs.reset(seed=args.seed)
    n_in = obs["observation"].shape[1]
    n_out = obs["action_mask"].shape[1]
    net = Net(n_in, n_out, args.hidden, args.seed, args.lr)
    rng = np.random.default_rng(args.seed)
    horizon, n_envs = args.steps, args.envs
    curve: list[dict[str, float]] = []
    finished: list[tuple[float, float]] = []  # (points per deal, won) of games ended since the last row
    steps = 0
    start = time.process_time()
    wall = time.perf_counter()
    update = 0
    while time.process_time() - start < args.cpu_minutes * 60 and time.perf_counter() - wall < args.wall_minutes * 60:
        buf_x = np.zeros((horizon, n_envs, n_in), np.float32)
        buf_mask = np.zeros((horizon, n_envs, n_out), bool)
        buf_a = np.zeros((horizon, n_envs), np.int64)
        buf_logp = np.zeros((horizon, n_envs), np.float32)
        buf_v = np.zeros((horizon + 1, n_envs), np.float32)
        buf_r = np.zeros((horizon, n_envs), np.float32)
        buf_done = np.zeros((horizon, n_envs), np.float32)
        for t in range(horizon):
            x, mask = obs["observation"], obs["action_mask"].astype(bool)
            a, logp, v = net.act(x, mask, rng)
            buf_x[t], buf_mask[t], buf_a[t], buf_logp[t], buf_v[t] = x, mask, a, logp, v
            obs, reward, term, trunc, info = envs.step(a)
            buf_r[t] = np.asarray(reward, np.float32) / REWARD_SCALE
            buf_done[t] = np.logical_or(term, trunc)
            for i in np.flatnonzero(buf_done[t]):
                scores = list(info["final_info"]["scores"][i])  # same-step autoreset: the ended game's info
                finished.append((scores[0] / DEALS, float(scores[0] == min(scores))))
        _, _, _, buf_v[horizon] = net.forward(obs["observation"], obs["action_mask"].astype(bool))
        adv = np.zeros((horizon, n_envs), np.float32)
        last = np.zeros(n_envs, np.float32)
        for t in reversed(range(horizon)):
            nonterminal = 1.0 - buf_done[t]
            delta = buf_r[t] + args.gamma * buf_v[t + 1] * nonterminal - buf_v[t]
            last = delta + args.gamma * args.lam * nonterminal * last
            adv[t] = last
        ret = adv + buf_v[:horizon]
        flat = lambda a: a.reshape(horizon * n_envs, *a.shape[2:])  # noqa: E731
        bx, bm, ba, blp, badv, bret = map(flat, (buf_x, buf_mask, buf_a, buf_logp, adv, ret))
        stats: dict[str, float] = {}
        for _ in range(args.epochs):
            order = rng.permutation(horizon * n_envs)
            for k in range(0, horizon * n_envs, args.minibatch):
                idx = order[k : k + args.minibatch]
                mb_adv = badv[idx]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                stats = net.update(bx[idx], bm[idx], ba[idx], blp[idx], mb_adv, bret[idx], args.clip, args.ent, 0.5)
        steps += horizon * n_envs
        update += 1
        if finished:
            ppd = float(np.mean([f[0] for f in finished]))
            wins = float(np.mean([f[1] for f in finished]))
            row = {
                "update": update,
                "steps": steps,
                "cpu_s": round(time.process_time() - start, 1),
                "wall_s": round(time.perf_counter() - wall, 1),
                "games": len(finished),
                "points_per_deal": round(ppd, 2),
                "win_rate": round(wins, 3),
                **{k: round(v, 4) for k, v in stats.items()},
            }
            curve.append(row)
            print(json.dumps(row), flush=True)
            finished = []
            net.save(ARTIFACTS / "ppo_policy.npz")
    envs.close()
    net.save(ARTIFACTS / "ppo_policy.npz")
    write_curve(curve)
    return net


def write_curve(curve: list[dict[str, float]]) -> None:
    if not curve:
        return
    with open(ARTIFACTS / "ppo_curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(curve[0]))
        writer.writeheader()
        writer.writerows(curve)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [r["steps"] for r in curve]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.plot(steps, [r["points_per_deal"] for r in curve], marker=".")
    ax1.set_xlabel("learner decisions (environment steps)")
    ax1.set_ylabel("learner's points per deal (lower is better)")
    ax1.set_title("Training games' points per deal")
    ax1.grid(alpha=0.3)
    ax2.plot(steps, [r["entropy"] for r in curve], marker=".", color="C1")
    ax2.set_xlabel("learner decisions (environment steps)")
    ax2.set_ylabel("policy entropy (nats)")
    ax2.set_title("Entropy of the masked policy")
    ax2.grid(alpha=0.3)
    fig.suptitle("Masked PPO (numpy), seat 0 of 4, liverpool preset, against three greedy bots")
    fig.tight_layout()
    fig.savefig(ARTIFACTS / "ppo_curve.png", dpi=100)
    plt.close(fig)


def rule_policy(env: LiverpoolGymEnv, seed: int) -> Callable[[np.ndarray, np.ndarray], int]:
    """The three-line rule: lay down with the solver's macro when possible, else lay off, else a
    random legal action."""
    ranges = env.aec.action_layout.ranges
    best = ranges["lay_down_best"][0]
    lo, hi = ranges["lay_off"]
    rng = np.random.default_rng(seed)

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        if mask[best]:
            return best
        layoffs = np.flatnonzero(mask[lo:hi])
        if layoffs.size:
            return int(lo + rng.choice(layoffs))
        return int(rng.choice(np.flatnonzero(mask)))

    return policy


def policy_of(name: str, net: Net, env: LiverpoolGymEnv, seed: int) -> Callable[[np.ndarray, np.ndarray], int]:
    """The policy ``name`` plays in seat 0: "ppo" (the most likely legal action), "rule" or "random"."""
    if name == "rule":
        return rule_policy(env, seed)
    rng = np.random.default_rng(seed)

    def choose(o: np.ndarray, m: np.ndarray) -> int:
        if name == "ppo":
            return int(net.act(o[None], m[None].astype(bool), None)[0][0])
        return int(rng.choice(np.flatnonzero(m)))

    return choose


def evaluate(net: Net, games: int, seed: int, opponents: list[str], strong_games: int) -> list[dict[str, Any]]:
    rows = []
    for opponent in opponents:
        spec = [opponent] * 3
        games_here = strong_games if opponent.startswith("strong") else games
        for name in ("ppo", "rule", "random"):
            env = LiverpoolGymEnv(opponents=spec, players=4, rules="liverpool")
            choose = policy_of(name, net, env, seed)
            wins = 0.0
            per_deal: list[float] = []
            t0 = time.process_time()
            for g in range(games_here):
                obs, _ = env.reset(seed=seed + g)
                done = False
                info: dict[str, Any] = {}
                while not done:
                    obs, _, done, _, info = env.step(choose(obs["observation"], obs["action_mask"]))
                scores, winners = info["scores"], info["winners"]
                if 0 in winners:
                    wins += 1 / len(winners)
                assert env.aec.game is not None
                per_deal.append(scores[0] / len(env.aec.game.deal_scores))
            lo, hi = wilson_interval(wins, games_here)
            ci = mean_ci(per_deal)
            row = {
                "seat_0": name,
                "opponents": "3 x " + opponent,
                "games": games_here,
                "wins": wins,
                "win_rate": round(wins / games_here, 3),
                "win_rate_ci95": [round(lo, 3), round(hi, 3)],
                "points_per_deal": round(float(np.mean(per_deal)), 1),
                "points_per_deal_ci95": None if ci is None else [round(ci[0], 1), round(ci[1], 1)],
                "cpu_s": round(time.process_time() - t0, 1),
            }
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| seat 0 | opponents | games | wins | win rate [95%] | points per deal [95%] |",
        "|---|---|---|---|---|---|",
    ]
    names = {"ppo": "PPO (trained)", "rule": "three-line rule", "random": "random legal action"}
    for r in rows:
        w = r["win_rate_ci95"]
        c = r["points_per_deal_ci95"]
        ci = f"{r['points_per_deal']} [{c[0]}, {c[1]}]" if c else str(r["points_per_deal"])
        lines.append(
            f"| {names[r['seat_0']]} | {r['opponents']} | {r['games']} | {r['wins']:g} | "
            f"{r['win_rate']:.2f} [{w[0]:.2f}, {w[1]:.2f}] | {ci} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpu-minutes", type=float, default=15.0, help="training budget, CPU time of this process")
    parser.add_argument(
        "--wall-minutes", type=float, default=math.inf, help="stop training sooner on a busy machine (wall time)"
    )
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--steps", type=int, default=128, help="steps per environment per update")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--ent", type=float, default=0.01)
    parser.add_argument("--opponents", default="greedy,greedy,greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--eval-opponents", default="random,greedy,strong:think=0.02")
    parser.add_argument("--strong-games", type=int, default=12, help="evaluation games against strong bots (slow)")
    parser.add_argument("--eval-out", default="ppo_eval.json", help="file name of the evaluation in artifacts/")
    parser.add_argument("--evaluate-only", action="store_true", help="evaluate artifacts/ppo_policy.npz")
    args = parser.parse_args(argv)
    ARTIFACTS.mkdir(exist_ok=True)
    net = Net.load(ARTIFACTS / "ppo_policy.npz") if args.evaluate_only else train(args)
    if args.eval_games > 0:
        rows = evaluate(net, args.eval_games, 10_000_000, args.eval_opponents.split(","), args.strong_games)
        (ARTIFACTS / args.eval_out).write_text(json.dumps({"args": vars(args), "rows": rows}, indent=2))
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
