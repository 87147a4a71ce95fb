"""Rich tables for tournaments and ladders."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table

from .ratings import ELO_MEAN, LadderResult
from .tournament import TournamentResult

__all__ = ["ladder_table", "print_ladder", "print_tournament", "tournament_table"]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _pace(games: int, seconds: float) -> str:
    rate = f", {games / seconds:.1f} games/s" if seconds > 0 else ""
    return f"{games} games in {seconds:.1f} s{rate}"


def _table(title: str, caption: str, headings: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    """A table of short cells (on a narrow terminal, headings and intervals wrap at spaces); the
    first column is the bot's name, the others numbers."""
    table = Table(box=box.SIMPLE_HEAD, title=title, caption=caption, padding=(0, 0, 0, 1), show_edge=False)
    for i, heading in enumerate(headings):
        if i == 0:
            table.add_column(heading, style="bold", no_wrap=True)
        else:
            table.add_column(heading, justify="right")
    for row in rows:
        table.add_row(*row)
    return table


def tournament_table(result: TournamentResult) -> Table:
    """One row per bot: games, wins, win rate (Wilson 95%), mean score (t 95%), points per deal,
    deals won, buys per deal."""
    rows = []
    for bot in result.bots:
        lo, hi = bot.win_rate_ci95
        ci = bot.mean_score_ci95
        rows.append(
            (
                bot.name,
                str(bot.seats),
                str(bot.games),
                f"{bot.wins:g}",
                f"{100 * bot.win_rate:.1f}",
                f"{100 * lo:.1f} - {100 * hi:.1f}",
                f"{bot.mean_score:.1f}",
                f"{(ci[1] - ci[0]) / 2:.1f}" if ci is not None else "-",
                f"{bot.points_per_deal:.1f}",
                f"{bot.deals_won:g}",
                f"{bot.buys_per_deal:.2f}",
            )
        )
    think = f" · think {result.think:g} s" if result.think is not None else ""
    return _table(
        f"Seats {','.join(result.seats)} · seed {result.seed}{think}",
        f"{_pace(len(result.games), result.seconds)}. Games and deals count seat-games; ties share wins. "
        "Intervals are 95% (Wilson for rates, Student t for means).",
        (
            "Bot",
            "Seats",
            "Games",
            "Wins",
            "Win %",
            "95% CI",
            "Mean score",
            "± 95%",
            "Points per deal",
            "Deals won",
            "Buys per deal",
        ),
        rows,
    )


def ladder_table(result: LadderResult) -> Table:
    """The ratings, best first, with their 95% intervals and the comparisons behind them."""
    rows = [
        (
            r.name,
            f"{r.rating:.0f}",
            f"{r.ci95[0]:.0f} - {r.ci95[1]:.0f}",
            f"{r.comparisons:g}",
            _pct(r.score),
            str(r.stats.games),
            _pct(r.stats.win_rate),
        )
        for r in result.ratings
    ]
    think = f" · think {result.think:g} s" if result.think is not None else ""
    return _table(
        f"Ladder · {result.table} seats a game · seed {result.seed}{think}",
        f"{_pace(len(result.games), result.seconds)}. Elo scale (mean {ELO_MEAN:g}) from a Bradley-Terry fit "
        "of pairwise results (pairs of seats; lower final score wins); 95% intervals: the wider of a bootstrap "
        "over games and the analytic one.",
        ("Bot", "Elo", "95% CI", "Pairs", "Pair score", "Games", "Win rate"),
        rows,
    )


def print_tournament(result: TournamentResult, console: Console | None = None) -> None:
    (console or Console()).print(tournament_table(result))


def print_ladder(result: LadderResult, console: Console | None = None) -> None:
    (console or Console()).print(ladder_table(result))
