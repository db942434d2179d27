#!/usr/bin/env python3
"""Writes the Alart 2014 example scenes with more than two disks (Secs. 2.3, 4.3, 5.2):

  alart-five-disks.json    Fig. 6: five disks, ten contacts, the listed friction coefficients
  alart-thirty-disks.json  Fig. 14: thirty disks packed compactly in a box, mu = 0.2
  alart-500-disks.json     Fig. 18: five hundred disks poured into a box (one step, Tables 3-6)

The paper's packings come from LMG90 and its figures give no coordinates: the thirty disks
here are a deposition (each disk dropped where it rests lowest on two supports), as compact
as a deposition gets; the five hundred are poured by the engine itself (a loose lattice
falling into the box, PGS, 6 s), which leaves rattlers — the "floating" disks of Fig. 18 —
as a dynamic packing does. The pour needs the ndem binary: pass its path as the first
argument (default build/engine/cli/ndem). Disks are
placed touching and then grown by 1 micrometre, so every contact starts closed. The contacts
follow the paper's velocity Signorini law without gap stabilisation
(regularization.stabilizationSteps 1000): overlaps stay as the solver leaves them.
Run from the repository root: python3 assets/scenes/generate/alart_packings.py
"""
import json
import math
import os
import random
import subprocess
import sys
import tempfile

GROW = 1e-6  # m: every contact starts 1-2 micrometres closed


def deposit(radii, width, steps=2000):
    """Each disk, in order, where it rests lowest between the walls x = 0 and x = width."""
    placed = []
    for r in radii:
        best = None
        for k in range(steps + 1):
            x = r + (width - 2 * r) * k / steps
            z = r
            for (xj, zj, rj) in placed:
                d = r + rj
                if abs(x - xj) < d:
                    z = max(z, zj + math.sqrt(d * d - (x - xj) ** 2))
            if best is None or z < best[1] - 1e-12:
                best = (x, z)
        placed.append((best[0], best[1], r))
    return placed


def disks(placed, material="disk"):
    return [{"position": [round(x, 9), 0, round(z, 9)], "radius": round(r + GROW, 9),
             "material": material} for (x, z, r) in placed]


def box(width, speed, stop, material="wall", top=None):
    walls = [
        {"name": "floor", "type": "plane", "material": material, "position": [0, 0, 0],
         "normal": [0, 0, 1]},
        {"name": "left", "type": "plane", "material": material, "position": [0, 0, 0],
         "normal": [1, 0, 0]},
        {"name": "right", "type": "plane", "material": material, "position": [width, 0, 0],
         "normal": [-1, 0, 0], "velocity": [-speed, 0, 0], "stopAt": stop},
    ]
    return walls


def tracks(count, every):
    """Each disk's final position (the final configurations the paper compares)."""
    return [{"type": "track", "particle": k, "every": every} for k in range(count)]


def settings(steps, dt, cap):
    return {
        "dimension": 2, "mode": "nonsmooth", "timeStep": dt, "gravity": [0, 0, -9.81],
        "solver": {"method": "nlgs", "iterations": cap, "relativeTolerance": 0.001},
        "warmStart": {"enabled": False, "beta": 1.0}, "impact": {"enabled": False},
        # The paper's velocity Signorini law (its Eq. 6): no gap stabilisation, an overlap
        # stays as the solver leaves it (the violation its figures plot).
        "regularization": {"stabilizationSteps": 1000},
    }


def five():
    cm = 0.01
    r1, r2, r3, r4, r5 = 1.0, 0.8, 1.0, 0.9, 0.9
    z2 = 1.3
    a = math.sqrt((r1 + r2) ** 2 - (z2 - 1) ** 2)
    p = {1: (1.0, 1.0), 2: (1 + a, z2), 3: (1 + 2 * a, 1.0)}

    def apex(pa, ra, pb, rb, r):
        da, db = ra + r, rb + r
        dx, dz = pb[0] - pa[0], pb[1] - pa[1]
        d = math.hypot(dx, dz)
        x = (da * da - db * db + d * d) / (2 * d)
        h = math.sqrt(da * da - x * x)
        return (pa[0] + x * dx / d - h * dz / d, pa[1] + x * dz / d + h * dx / d)

    p[4] = apex(p[1], r1, p[2], r2, r4)
    p[5] = apex(p[2], r2, p[3], r3, r5)
    radius = {1: r1, 2: r2, 3: r3, 4: r4, 5: r5}
    width = p[3][0] + r3
    # Contacts 1-10 as numbered here, with the paper's ten coefficients in its order.
    mu = {("floor", "d1"): 0.1, ("left", "d1"): 1.0, ("d1", "d2"): 0.1, ("floor", "d3"): 1.0,
          ("right", "d3"): 1.0, ("d2", "d3"): 1.0, ("d1", "d4"): 10.0, ("d2", "d4"): 0.1,
          ("d2", "d5"): 0.1, ("d3", "d5"): 10.0}
    names = ["floor", "left", "right"] + ["d%d" % k for k in range(1, 6)]
    scene = {
        "name": "alart-five-disks",
        "description": (
            "Alart 2014 Sec. 2.3, Figs. 6-11: five disks under gravity in a box whose right wall "
            "moves in at 1 cm/s, 25 steps of 10 ms. Ten contacts, numbered here floor-1, "
            "left-1, 1-2, floor-3, right-3, 2-3, 1-4, 2-4, 2-5, 3-5, with the paper's ten "
            "friction coefficients in its order (0.1, 1, 0.1, 1, 1, 1, 10, 0.1, 0.1, 10); its "
            "Fig. 6 gives neither the geometry nor the numbering, so both are ours: disk 2 "
            "(radius 0.8 cm) hangs between disks 1 and 3 (1 cm) without touching the floor, "
            "disks 4 and 5 (0.9 cm) sit on top. New contacts may form (the paper keeps ten)."),
        "duration": 0.25,
        "settings": settings(25, 0.01, 150),
        "materials": [{"name": n, "density": 2600, "friction": 0.1, "restitution": 0.0,
                       "youngsModulus": 1e9} for n in names],
        "contactMaterials": [{"materials": list(k), "friction": v} for k, v in mu.items()],
        "walls": box(width * cm, 0.01, 0.25, material=None),
        "particles": [{"type": "list", "items": [
            {"position": [round(p[k][0] * cm, 9), 0, round(p[k][1] * cm, 9)],
             "radius": round(radius[k] * cm + GROW, 9), "material": "d%d" % k}
            for k in range(1, 6)]}],
        "measurements": tracks(5, 25),
    }
    for w in scene["walls"]:
        w["material"] = w["name"]
    return scene


def packed(name, count, width_d, seed, steps, dt, cap, mu, description, duration, placed=None):
    rng = random.Random(seed)
    r0 = 0.005
    radii = [r0 * rng.uniform(0.8, 1.2) for _ in range(count)]
    width = width_d * 2 * r0
    if placed is None:
        placed = deposit(radii, width)
    return {
        "name": name,
        "description": description,
        "duration": duration,
        "settings": settings(steps, dt, cap),
        "materials": [
            {"name": "disk", "density": 2600, "friction": mu, "restitution": 0.0,
             "youngsModulus": 1e9},
            {"name": "wall", "density": 2600, "friction": mu, "restitution": 0.0,
             "youngsModulus": 1e9}],
        "walls": box(width, 0.01, duration),
        "particles": [{"type": "list", "items": disks(placed)}],
        "measurements": tracks(count, steps) if count <= 30 else [],
    }


def pour(ndem, count, width_d, seed, mu):
    """Centres and radii of `count` disks poured into a box `width_d` mean diameters wide."""
    rng = random.Random(seed)
    r0 = 0.005
    width = width_d * 2 * r0
    columns = int(width / (2.4 * r0))
    items = []
    for k in range(count):
        row, col = divmod(k, columns)
        x = (col + 0.5) * width / columns + rng.uniform(-0.1, 0.1) * r0
        items.append({"position": [round(x, 9), 0, round(0.01 + 2.6 * r0 * (row + 0.5), 9)],
                      "radius": round(r0 * rng.uniform(0.8, 1.2), 9), "material": "disk"})
    scene = {
        "name": "pour", "duration": 6.0,
        "settings": {"dimension": 2, "mode": "nonsmooth", "timeStep": 0.005,
                     "gravity": [0, 0, -9.81], "solver": {"iterations": 200},
                     "warmStart": {"enabled": True}},
        "materials": [{"name": "disk", "density": 2600, "friction": mu, "restitution": 0.0,
                       "youngsModulus": 1e9}],
        "walls": box(width, 0.0, 0.0, material="disk"),
        "particles": [{"type": "list", "items": items}],
        "measurements": [{"type": "track", "particle": k, "every": 200} for k in range(count)],
    }
    with tempfile.TemporaryDirectory() as d:
        path, report = os.path.join(d, "pour.json"), os.path.join(d, "report.json")
        with open(path, "w") as f:
            json.dump(scene, f)
        subprocess.run([ndem, "run", path, "--report", report, "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        with open(report) as f:
            tracks = [m for m in json.load(f)["measurements"] if m["name"] == "track"]
    return [(m["scalars"]["finalX"], m["scalars"]["finalZ"], items[k]["radius"] - GROW)
            for k, m in enumerate(tracks)]


def main():
    ndem = sys.argv[1] if len(sys.argv) > 1 else "build/engine/cli/ndem"
    out = "assets/scenes/"
    scenes = [
        five(),
        packed("alart-thirty-disks", 30, 6, 14, 20, 0.01, 300, 0.2,
               "Alart 2014 Sec. 4.3, Figs. 14-17: thirty disks (radii 4-6 mm) packed in a box six "
               "mean diameters wide, friction 0.2 everywhere, the right wall moving in at 1 cm/s, "
               "20 steps of 10 ms, NLGS capped at 300 sweeps. The paper's packing (LMG90) is not "
               "given: this one is a deposition, each disk where it rests lowest.", 0.2),
        packed("alart-500-disks", 500, 25, 18, 1, 0.01, 2000, 0.2,
               "Alart 2014 Sec. 5.2-5.3, Fig. 18, Tables 3-6: five hundred disks (radii 4-6 mm) "
               "poured by the engine into a box 25 mean diameters wide (a loose lattice "
               "falling, 6 s), friction 0.2, the right wall moving in at 1 cm/s; the paper "
               "studies one step of it.", 0.01, placed=pour(ndem, 500, 25, 18, 0.2)),
    ]
    # The paper's potential contacts are those closed at the step's start (g <= 0): no
    # detection margin, so that a rattler near its cage is no contact (Fig. 18's floating disks).
    scenes[2]["settings"]["contact"] = {"margin": 0.0}
    scenes[2]["description"] += " No detection margin: contacts are the closed ones, as the paper's."
    for s in scenes:
        s["description"] += (" The paper's velocity Signorini law (its Eq. 6) without gap "
                             "stabilisation (regularization.stabilizationSteps 1000): an "
                             "overlap stays as the solver leaves it.")
        with open(out + s["name"] + ".json", "w") as f:
            json.dump(s, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
