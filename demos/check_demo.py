#!/usr/bin/env python3
"""Runs one demo and checks its output (the `demos` meson suite).

usage: check_demo.py DEMO EXECUTABLE OUTPUT_PNG

mandelbrot, triangle: the PNG the demo writes is decoded and pixels at a few
points are compared with values computed here independently of the GPU (the
escape count of the point / the barycentric colour), within +-2 of 255.
mandelbrot-dxil: mandelbrot run with --dxil (its shader from mandelbrot.ll),
checked as mandelbrot, then run again with its d3d-asm shader into
OUTPUT_PNG's sibling `*-asm.png`; the two pictures must agree within +-2 per
channel at the checked points, and at all but 1% of the pixels (the Vulkan
driver may contract the loop's multiplies and adds differently for the two
SPIR-V modules, which moves the escape count of points near the set's
boundary).
append: the count and the values the demo prints.
Exits 77 (skipped) when the demo finds no Vulkan device.
"""
import math
import re
import struct
import subprocess
import sys
import zlib


def read_png(path):
    """(width, height, rows of RGBA tuples) of an 8-bit RGBA PNG with filter 0 rows."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack_from(">I", data, pos + 8 + length)[0]
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"bad CRC in chunk {kind!r}")
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, _ = header
    if (depth, color) != (8, 6):
        raise ValueError("expected 8-bit RGBA")
    raw = zlib.decompress(idat)
    stride = 1 + 4 * width
    rows = []
    for y in range(height):
        row = raw[y * stride:(y + 1) * stride]
        if row[0] != 0:
            raise ValueError("expected filter type 0")
        rows.append([tuple(row[1 + 4 * x:5 + 4 * x]) for x in range(width)])
    return width, height, rows


def unorm8(v):
    return int(min(max(v, 0.0), 1.0) * 255.0 + 0.5)


def mandelbrot_expected(x, y):
    """The colour of pixel (x, y) in mandelbrot.cpp's view, as mandelbrot.asm computes it."""
    width, height, max_iterations = 640, 480, 256
    scale = 3.2 / width
    cx, cy = -0.6 + (x - 0.5 * width) * scale, (y - 0.5 * height) * scale
    zx = zy = 0.0
    n = 0
    while n < max_iterations:
        x2, y2 = zx * zx, zy * zy
        if x2 + y2 > 4.0:
            break
        zx, zy = x2 - y2 + cx, 2.0 * zx * zy + cy
        n += 1
    if n == max_iterations:
        return (0, 0, 0, 255)
    return tuple(unorm8(0.5 + 0.5 * math.cos(3.0 + 0.15 * n + k)) for k in (0.0, 0.6, 1.0)) + (255,)


def triangle_expected(x, y):
    """The colour of pixel (x, y) in triangle.cpp: barycentric mix, brightened by the minimum."""
    width, height = 320, 240
    px, py = (x + 0.5) / width * 2 - 1, 1 - (y + 0.5) / height * 2  # D3D: y up
    (ax, ay), (bx, by), (cx, cy) = (0.0, 0.8), (-0.8, -0.8), (0.8, -0.8)
    area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay)
    wa = ((bx - px) * (cy - py) - (cx - px) * (by - py)) / area
    wb = ((cx - px) * (ay - py) - (ax - px) * (cy - py)) / area
    wc = 1 - wa - wb
    if min(wa, wb, wc) < 0:
        return tuple(unorm8(v) for v in (0.1, 0.1, 0.15, 1.0))
    m = min(wa, wb, wc)
    return tuple(unorm8(v + m) for v in (wa, wb, wc)) + (255,)


POINTS = {
    # Inside the main cardioid, on the real axis, escaping after 1, 2, 3 steps, near the set.
    "mandelbrot": (mandelbrot_expected, [(320, 240), (160, 240), (0, 0), (639, 479), (600, 240), (210, 130), (450, 100)]),
    # The clear colour at the corners, the centroid, near each vertex, just inside an edge.
    "triangle": (triangle_expected, [(0, 0), (319, 239), (160, 152), (160, 40), (45, 215), (275, 215), (100, 120)]),
}


def check_image(demo, path, stdout):
    if f"wrote {path}" not in stdout:
        return [f"the demo did not print 'wrote {path}'"]
    width, height, rows = read_png(path)
    expected_of, points = POINTS[demo]
    problems = []
    for x, y in points:
        got, want = rows[y][x], expected_of(x, y)
        if any(abs(g - w) > 2 for g, w in zip(got, want)):
            problems.append(f"pixel ({x}, {y}) is {got}, expected {want}")
        else:
            print(f"pixel ({x}, {y}) = {got} as expected")
    return problems


def compare_images(demo, path, reference):
    """Problems if the pictures at `path` and `reference` differ by more than +-2 in a
    channel at one of the demo's checked points, or at more than 1% of the pixels."""
    (w, h, rows), (rw, rh, ref) = read_png(path), read_png(reference)
    if (w, h) != (rw, rh):
        return [f"{path} is {w} x {h}, {reference} is {rw} x {rh}"]
    def far(x, y):
        return any(abs(a - b) > 2 for a, b in zip(rows[y][x], ref[y][x]))
    problems = [f"pixel ({x}, {y}) is {rows[y][x]} here, {ref[y][x]} in {reference}"
                for x, y in POINTS[demo][1] if far(x, y)]
    differing = sum(far(x, y) for y in range(h) if rows[y] != ref[y] for x in range(w))
    print(f"{differing} of {w * h} pixels differ by more than 2 from {reference}")
    if differing * 100 > w * h:
        problems.append(f"{differing} pixels differ from {reference}, more than 1%")
    return problems


def run_demo(command):
    """(exit status, stdout) of the demo, its output echoed."""
    run = subprocess.run(command, capture_output=True, text=True, timeout=100)
    print(run.stdout, end="")
    print(run.stderr, end="", file=sys.stderr)
    return run.returncode, run.stdout


def check_append(stdout):
    values = [i * i for i in range(0, 256, 7)]
    m = re.search(r"(\d+) threads appended (\d+) values", stdout)
    if not m:
        return ["no 'N threads appended N values' line"]
    problems = []
    if int(m.group(2)) != len(values):
        problems.append(f"count {m.group(2)}, expected {len(values)}")
    sorted_line = re.search(r"^sorted:(.*)$", stdout, re.M)
    got = [int(v) for v in sorted_line.group(1).split()] if sorted_line else []
    if got != values:
        problems.append(f"values {got}, expected {values}")
    else:
        print(f"count {len(values)} and the values as expected")
    return problems


def main():
    demo, exe, output = sys.argv[1:4]
    dxil = demo == "mandelbrot-dxil"
    command = [exe] if demo == "append" else [exe, "-o", output] + (["--dxil"] if dxil else [])
    status, stdout = run_demo(command)
    if status == 77:
        return 77
    if status != 0:
        print(f"FAIL: {demo} exited with {status}")
        return 1
    if demo == "append":
        problems = check_append(stdout)
    else:
        problems = check_image(demo.removesuffix("-dxil"), output, stdout)
    if dxil and not problems:
        reference = output.removesuffix(".png") + "-asm.png"
        status, stdout = run_demo([exe, "-o", reference])
        problems = [f"the d3d-asm variant exited with {status}"] if status else compare_images("mandelbrot", output, reference)
    for p in problems:
        print(f"FAIL: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
