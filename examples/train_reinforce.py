"""Train a small masked policy with REINFORCE (numpy only) against random bots, then measure it.

    .venv/bin/pip install -e '.[rl]'
    .venv/bin/python examples/train_reinforce.py [--minutes 2.5] [--eval-games 100] [--seed 0]

The learner plays seat 0 of ``liverpool/Liverpool-v0`` (4 players, the ``liverpool`` preset) against
three ``random`` bots. The policy is a one-hidden-layer network over the observation
(``sign(x) * log(1 + |x|)``), its logits masked by ``action_mask`` before the softmax. Each deal is
one REINFORCE episode: every decision of the deal gets the deal's reward (minus the learner's
points, / 100), less a running baseline. Adam updates after every game.

At the end it plays ``--eval-games`` games with the trained policy (greedy: the most likely legal
action) and as many with a uniformly random legal action in the same seat, same seeds, and prints
the learner's win rate and mean final score for both with 95% confidence intervals. Weights go to
``artifacts/reinforce_policy.npz``, the learning curve to ``artifacts/reinforce_curve.png``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import liverpool.env  # noqa: F401  (registers liverpool/Liverpool-v0)

ARTIFACTS = Path("artifacts")


class Policy:
    """logits = relu(x W1 + b1) W2 + b2, masked; Adam on the REINFORCE gradient."""

    def __init__(self, n_in: int, n_out: int, hidden: int, rng: np.random.Generator, lr: float) -> None:
        self.params = {
            "W1": rng.normal(0, 1 / math.sqrt(n_in), (n_in, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": np.zeros((hidden, n_out), np.float32),
            "b2": np.zeros(n_out, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0
        self.lr = lr

    @staticmethod
    def features(obs: np.ndarray) -> np.ndarray:
        return np.asarray(np.sign(obs) * np.log1p(np.abs(obs)), np.float32)

    def probs(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.params
        h = np.maximum(x @ p["W1"] + p["b1"], 0)
        z = h @ p["W2"] + p["b2"]
        z = np.where(mask > 0, z, -np.inf)
        z = np.exp(z - z.max(axis=-1, keepdims=True))
        return h, z / z.sum(axis=-1, keepdims=True)

    def update(self, xs: np.ndarray, masks: np.ndarray, actions: np.ndarray, adv: np.ndarray) -> None:
        """Gradient ascent on sum(adv * log pi(a | x)) / len, through Adam."""
        p = self.params
        h, pr = self.probs(xs, masks)
        dz = -pr
        dz[np.arange(len(actions)), actions] += 1
        dz *= adv[:, None] / len(actions)
        grads = {"W2": h.T @ dz, "b2": dz.sum(0)}
        dh = (dz @ p["W2"].T) * (h > 0)
        grads |= {"W1": xs.T @ dh, "b1": dh.sum(0)}
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mhat = self.m[k] / (1 - 0.9**self.t)
            vhat = self.v[k] / (1 - 0.999**self.t)
            p[k] += (self.lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)  # ascent


def play_game(
    env: Any, policy: Policy | None, rng: np.random.Generator, seed: int, greedy: bool = False
) -> tuple[list[tuple[np.ndarray, np.ndarray, int]], list[tuple[int, int, float]], dict[str, Any]]:
    """One game; ``policy`` None plays a uniformly random legal action. Returns the decisions
    (features, mask, action), the deals as (first decision, end decision, reward), the last info."""
    obs, _ = env.reset(seed=seed)
    steps: list[tuple[np.ndarray, np.ndarray, int]] = []
    deals: list[tuple[int, int, float]] = []
    start = 0
    while True:
        mask = obs["action_mask"]
        legal = np.flatnonzero(mask)
        if policy is None:
            a = int(legal[rng.integers(len(legal))])
        else:
            x = Policy.features(obs["observation"])
            _, pr = policy.probs(x[None], mask[None])
            a = int(np.argmax(pr[0])) if greedy else int(rng.choice(len(pr[0]), p=pr[0]))
            steps.append((x, mask, a))
        obs, reward, done, _, info = env.step(a)
        if info.get("deal_ended"):
            deals.append((start, len(steps), float(reward)))
            start = len(steps)
        if done:
            return steps, deals, info


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% (normal) confidence interval."""
    a = np.asarray(values, float)
    return float(a.mean()), float(1.96 * a.std(ddof=1) / math.sqrt(len(a)))


def evaluate(env: Any, policy: Policy | None, games: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    wins: list[float] = []
    scores: list[float] = []
    for g in range(games):
        _, _, info = play_game(env, policy, rng, seed=10_000_000 + g, greedy=True)
        wins.append(float(0 in info["winners"]))
        scores.append(float(info["scores"][0]))
    score, score_ci = mean_ci(scores)
    won = int(sum(wins))
    return {
        "games": games,
        "wins": won,
        "win_rate": won / games,
        "win_rate_ci95": wilson(won, games),
        "mean_score": round(score, 1),
        "score_ci95": round(score_ci, 1),
    }


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k / n (sound at 0 and n too)."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(centre - half, 3), round(centre + half, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=2.5, help="training time")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = gymnasium.make("liverpool/Liverpool-v0", opponents="random", players=4)
    space = env.observation_space["observation"]  # type: ignore[index]
    n_in, n_out = space.shape[0], int(env.action_space.n)  # type: ignore[attr-defined]
    rng = np.random.default_rng(args.seed)
    policy = Policy(n_in, n_out, args.hidden, rng, args.lr)
    baseline, curve = 0.0, []  # curve: (game, mean points per deal of that game)
    start = time.monotonic()
    game = 0
    while time.monotonic() - start < args.minutes * 60:
        steps, deals, info = play_game(env, policy, rng, seed=args.seed * 1_000_000 + game)
        xs = np.stack([s[0] for s in steps])
        masks = np.stack([s[1] for s in steps])
        actions = np.array([s[2] for s in steps])
        ret = np.zeros(len(steps), np.float32)
        for first, end, reward in deals:
            ret[first:end] = reward / 100
        adv = ret - baseline
        baseline = 0.95 * baseline + 0.05 * float(ret.mean())
        adv /= adv.std() + 1e-6
        policy.update(xs, masks, actions, adv)
        curve.append((game, info["scores"][0] / len(deals)))
        game += 1
        if game % 25 == 0:
            recent = np.mean([c[1] for c in curve[-25:]])
            print(f"game {game}: {time.monotonic() - start:.0f}s, mean points per deal (last 25) {recent:.1f}")
    train_s = time.monotonic() - start

    ARTIFACTS.mkdir(exist_ok=True)
    np.savez(ARTIFACTS / "reinforce_policy.npz", **policy.params)  # type: ignore[arg-type]
    trained = evaluate(env, policy, args.eval_games, args.seed)
    uniform = evaluate(env, None, args.eval_games, args.seed)
    result = {"train_games": game, "train_seconds": round(train_s), "trained": trained, "random_policy": uniform}
    print(json.dumps(result, indent=1))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = np.array([c[1] for c in curve])
    window = max(1, min(50, len(points) // 5))
    smooth = np.convolve(points, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(points, alpha=0.25, label="points per deal, each training game")
    ax.plot(np.arange(window - 1, len(points)), smooth, label=f"moving mean ({window} games)")
    ax.axhline(uniform["mean_score"] / 7, color="gray", ls="--", label="uniform random policy (eval)")
    ax.axhline(trained["mean_score"] / 7, color="green", ls=":", label="trained policy, greedy (eval)")
    ax.set_xlabel("training game")
    ax.set_ylabel("learner's points per deal (lower is better)")
    ax.set_title("REINFORCE, seat 0 vs 3 random bots (liverpool, 4 players)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(ARTIFACTS / "reinforce_curve.png", dpi=110)
    (ARTIFACTS / "reinforce_result.json").write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
