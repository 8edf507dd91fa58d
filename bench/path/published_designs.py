#!/usr/bin/env python3
"""Recomputes the objectives of the published path-generation designs independently of kinevo.

The coupler point is computed the way the path-synthesis literature writes it (Cabrera, Simon
and Prado 2002, eqs. (3)-(6): theta3 = 2 atan((-E -/+ sqrt(E^2 - 4 D F)) / (2 D)) from
Freudenstein's half-angle form), not with kinevo's law-of-cosines position analysis, so that the
two evaluations check each other. For each design: the objective on both assembly branches, and
the constraints (Grashof, crank = r2 shortest, assembly at every point, input order).

The designs are those tabulated for the four benchmark cases in the public code of Nguyen-Van and
Gwak (2022, "A new study on optimization of four-bar mechanisms based on a hybrid-combined
differential evolution and Jaya algorithm", Symmetry 14(2) 381), which collects the published
results (Cabrera et al. 2002, Kunjur and Krishnamurty 1997, Lin and Hsiao, MUMSA, IOA) and its own
(HCDJ), as vectors [r1 r2 r3 r4 rcx rcy x0 y0 theta0 (inputs)].

Usage: python3 bench/path/published_designs.py   (prints one line per design)
"""
import math

CASES = {
    "case1": dict(
        points=[(20, 20), (20, 25), (20, 30), (20, 35), (20, 40), (20, 45)],
        timing="free", crank=True,
        designs={
            "MUMSA": [31.788264, 8.2046468, 24.932131, 31.385926, 34.193719, 14.415668,
                      -6.366519, 56.83676, 4.015959,
                      1.366547, 2.330773, 2.871039, 3.394591, 3.97096, 4.96349],
            "Lin-Hsiao a": [45.9540268793200, 10.1413352283990, 36.1198616002200,
                            49.7905570636800, 51.4935231082160, 16.4957302836340,
                            59.9251894962240, -0.267255177889410, 0.862384954187540,
                            4.49683139849550, 3.94685292206840, 3.51208539098020,
                            3.11078124880880, 2.71010931195190, 2.26549866257340],
            "Lin-Hsiao b": [18.1304774597420, 8.51190563603640, 50.5261110390030,
                            47.4165113621710, 51.6932129228460, -59.9706964849970,
                            -50.6632020069740, 44.5248269164710, 5.80155035478320,
                            2.21032595635080, 2.50154874474090, 2.78997173731280,
                            3.07713085604920, 3.36378097604160, 3.65145100974960],
            "HCDJ": [14.201369, 8.0143127, 16.309922, 12.253871, 27.797721, 11.305412,
                     -2.309531, 45.695083, 4.5172417,
                     6.2532447, 2.4038981, 2.9362397, 3.4905751, 4.0650776, 5.2095019],
        }),
    "case2": dict(
        points=[(3, 3), (2.759, 3.363), (2.372, 3.663), (1.890, 3.862), (1.355, 3.943)],
        inputs=[math.pi / 6, math.pi / 4, math.pi / 3, 5 * math.pi / 12, math.pi / 2],
        timing="prescribed", crank=False, fixed=True,
        designs={
            "Cabrera": [3.0630424, 1.9959624, 3.305823, 2.524706, 1.645158, 1.708959],
            "Kunjur": [3.509643, 1.857606, 4.725835, 3.518721, 1.959538, 1.558898],
            "MUMSA": [3.77326856, 2.00000403, 4.11697104, 2.74615671, 1.67848787, 1.67098007],
            "IOA": [2.803607, 1.99226, 3.030461, 2.474117, 1.64413, 1.714536],
            "HCDJ": [4.2930812, 1.9978324, 4.7374099, 2.9417301, 1.7074051, 1.6441696],
        }),
    "case3": dict(
        points=[(0.5, 1.1), (0.4, 1.1), (0.3, 1.1), (0.2, 1.0), (0.1, 0.9), (0.05, 0.75),
                (0.02, 0.6), (0.0, 0.5), (0.0, 0.4), (0.03, 0.3), (0.1, 0.25), (0.15, 0.2),
                (0.2, 0.3), (0.3, 0.4), (0.4, 0.5), (0.5, 0.7), (0.6, 0.9), (0.6, 1.0)],
        relative=[i * math.pi / 9 for i in range(18)],
        timing="relative", crank=False,
        designs={
            "Cabrera": [3.057878, 0.237803, 4.828954, 2.056456, 0.767038, 1.850828,
                        1.776808, -0.641991, 1.002168, 0.226186],
            "Kunjur": [1.87966, 0.274853, 1.180253, 2.138209, -0.833592, -0.37877,
                       1.132062, 0.663433, 4.354224, 2.558625],
            "MUMSA": [4.453772, 0.297057, 3.913095, 0.849372, -2.067338, 1.6610626,
                      -1.309243, 2.806964, 2.7387359, 4.853543],
            "IOA": [4.040435, 0.245216, 6.38294, 2.620532, 1.139106, 1.866109,
                    1.891805, -0.761339, 1.187751, 0.0],
            "HCDJ": [49.800886, 0.28817159, 48.476138, 1.633642, -23.41281, 7.6644886,
                     -14.836153, 20.140223, 2.5286091, 5.0644224],
        }),
    "case4": dict(
        points=[(0, 0), (1.9098, 5.8779), (6.9098, 9.5106), (13.09, 9.5106), (18.09, 5.8779),
                (20, 0.0)],
        inputs=[math.pi / 6, math.pi / 3, math.pi / 2, 2 * math.pi / 3, 5 * math.pi / 6,
                math.pi],
        timing="prescribed", crank=True,
        designs={
            "column 1": [49.994859, 5, 5.915643, 49.994867, 18.925715, 0, 14.472475,
                         -12.494409, 0.467287],
            "column 2": [50, 5, 5.905345, 50, 18.819312, 0, 14.373772, -12.444295, 0.463633],
            "column 3": [50, 5, 7.031047, 48.134183, 16.976687, 12.952139, 12.197494,
                         -15.998203, 0.0428247],
            "column 5": [49.968967, 4.785659, 6.491026, 48.393942, 16.444782, 11.988091,
                         12.046587, -14.774897, 0.038678],
            "column 6": [60, 5, 7.06916, 58.1241, 16.8655, 13.0576, 11.8936, -16.0037,
                         6.28318],
            "HCDJ": [49.99998, 1.3484315, 1.3484507, 50.0, 11.384434, 4.4424357, 10.194752,
                     -3.694134, 6.2158799],
        }),
}


def coupler(x, theta2, sign):
    r1, r2, r3, r4, rcx, rcy = x[:6]
    k1, k4 = r1 / r2, r1 / r3
    k5 = (r4 ** 2 - r1 ** 2 - r2 ** 2 - r3 ** 2) / (2 * r3 * r2)
    d = math.cos(theta2) - k1 + k4 * math.cos(theta2) + k5
    e = -2 * math.sin(theta2)
    f = k1 + (k4 - 1) * math.cos(theta2) + k5
    disc = e * e - 4 * d * f
    if disc < 0:
        return None
    theta3 = 2 * math.atan((-e + sign * math.sqrt(disc)) / (2 * d))
    cx = r2 * math.cos(theta2) + rcx * math.cos(theta3) - rcy * math.sin(theta3)
    cy = r2 * math.sin(theta2) + rcx * math.sin(theta3) + rcy * math.cos(theta3)
    return cx, cy


def evaluate(case, x):
    n = len(case["points"])
    if case.get("fixed"):
        x0 = y0 = th0 = 0.0
    else:
        x0, y0, th0 = x[6], x[7], x[8]
    if case["timing"] == "prescribed":
        inputs = case["inputs"]
    elif case["timing"] == "relative":
        inputs = [x[9] + a for a in case["relative"]]
    else:
        inputs = x[9:9 + n]
    out = {}
    for sign, name in ((-1, "literature branch (-sqrt)"), (1, "other branch (+sqrt)")):
        total, assembled = 0.0, True
        for (px, py), t in zip(case["points"], inputs):
            c = coupler(x, t, sign)
            if c is None:
                assembled = False
                continue
            gx = x0 + math.cos(th0) * c[0] - math.sin(th0) * c[1]
            gy = y0 + math.sin(th0) * c[0] + math.cos(th0) * c[1]
            total += (gx - px) ** 2 + (gy - py) ** 2
        out[name] = (total, assembled)
    links = sorted(x[:4])
    grashof = links[0] + links[3] <= links[1] + links[2]
    crank = grashof and x[1] == links[0]
    steps = [math.remainder(b - a, 2 * math.pi) for a, b in zip(inputs, inputs[1:])]
    ordered = all(s > 0 for s in steps) or all(s < 0 for s in steps)
    return out, grashof, crank, ordered


def main():
    for key, case in CASES.items():
        for name, x in case["designs"].items():
            out, grashof, crank, ordered = evaluate(case, x)
            branches = "; ".join(f"{b}: {v:.10e}{'' if ok else ' (does not assemble)'}"
                                 for b, (v, ok) in out.items())
            needs = "crank-rocker" if case["crank"] else "Grashof"
            holds = crank if case["crank"] else grashof
            print(f"{key} {name:12s} {branches}; {needs}: {'yes' if holds else 'NO'}; "
                  f"order: {'yes' if ordered else 'NO'}")


if __name__ == "__main__":
    main()
