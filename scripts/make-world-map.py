#!/usr/bin/env python3
"""Makes Sources/ListServiceHTTP/Web/world.svg, the land outline under the earthquake map, from
Natural Earth's public-domain 1:110m countries (the `naturalearth_lowres` data set that
geopandas shipped before 1.0). Run once by hand; its output is committed.

    python3 -m venv /tmp/ne && /tmp/ne/bin/pip install pyshp
    /tmp/ne/bin/pip download geopandas==0.14.4 --no-deps -d /tmp/ne
    /tmp/ne/bin/python scripts/make-world-map.py /tmp/ne/geopandas-0.14.4-py3-none-any.whl

Plate carrée, 2 units per degree (viewBox 0 0 720 360, x = (lon + 180) * 2, y = (90 - lat) * 2),
the projection the page uses to place markers; outlines simplified (Douglas-Peucker, 0.35°).
"""
import io
import sys
import zipfile

import shapefile  # pyshp

TOLERANCE = 0.35  # degrees
SCALE = 2
OUT = "Sources/ListServiceHTTP/Web/world.svg"


def simplify(points, tolerance):
    """Douglas-Peucker on a ring, keeping its ends."""
    if len(points) < 3:
        return points
    (x1, y1), (x2, y2) = points[0], points[-1]
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5
    worst, index = 0.0, 0
    for i in range(1, len(points) - 1):
        px, py = points[i]
        distance = abs(dy * px - dx * py + x2 * y1 - y2 * x1) / length if length else ((px - x1) ** 2 + (py - y1) ** 2) ** 0.5
        if distance > worst:
            worst, index = distance, i
    if worst <= tolerance:
        return [points[0], points[-1]]
    return simplify(points[: index + 1], tolerance)[:-1] + simplify(points[index:], tolerance)


def main():
    wheel = zipfile.ZipFile(sys.argv[1])
    base = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres"
    reader = shapefile.Reader(
        shp=io.BytesIO(wheel.read(base + ".shp")), shx=io.BytesIO(wheel.read(base + ".shx")), dbf=io.BytesIO(wheel.read(base + ".dbf"))
    )
    rings = []
    for shape in reader.shapes():
        parts = list(shape.parts) + [len(shape.points)]
        for start, end in zip(parts, parts[1:]):
            ring = simplify(shape.points[start:end], TOLERANCE)
            if len(ring) < 4:
                continue
            projected = [(round((lon + 180) * SCALE, 1), round((90 - lat) * SCALE, 1)) for lon, lat in ring]
            text = "M" + "L".join(f"{x:g} {y:g}" for x, y in projected[:-1]) + "Z"
            rings.append(text)
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 360">'
        "<!-- Made with Natural Earth (public domain): 1:110m countries, simplified. -->"
        '<path fill="#9aa7b5" fill-opacity=".45" stroke="#7b8794" stroke-width=".4" stroke-linejoin="round" d="' + "".join(rings) + '"/></svg>\n'
    )
    with open(OUT, "w") as file:
        file.write(svg)
    print(f"{OUT}: {len(rings)} rings, {len(svg)} bytes")


if __name__ == "__main__":
    main()
