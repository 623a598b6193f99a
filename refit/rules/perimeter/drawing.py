"""What each side draws on the reduced map (11.6066)."""

from __future__ import annotations

from refit.rules.hexgrid import Hex
from refit.rules.perimeter.board import Result


def drawn_hexsides(result: Result) -> dict[str, tuple[tuple[Hex, Hex], ...]]:
    """11.6066: each hexside between a friendly front-line hex and NML or a non-isolated
    enemy-controlled hex."""
    board = result.board
    isolated = result.isolated
    drawing = {}
    for side, side_result in result.sides.items():
        enemy = board.enemy(side)
        sides = []
        for h in board.map.sorted(side_result.front_line):
            for n in board.map.adjacency[h]:
                if n in result.nml or (n not in isolated and result.control.get(n) == enemy):
                    sides.append((h, n))
        drawing[side] = tuple(sides)
    return drawing
