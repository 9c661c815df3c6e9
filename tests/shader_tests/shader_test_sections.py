"""The shader sections of a .shader_test file (the runner's format: README.md
here), for the scripts that read them without the runner:
validate_dxil_sections.py here and programs/shader-bench/pgo_training_set.py.
Sections with qualifiers (fail, todo, notimpl) are not shader sections for
them, nor are the precompiled hex containers.
"""
import re

SECTION = re.compile(r"^\[(vertex|pixel|geometry|hull|domain|compute) shader (d3d-asm|dxil-ll)\]\s*$")


def shader_sections(path, forms=("d3d-asm", "dxil-ll")):
    """(line number after the header, stage, form, text) of each shader
    section of `path` in one of `forms`. In d3d-asm text a line starting
    with '%' is a comment and is dropped, as the runner drops it; in dxil-ll
    text it is LLVM IR and is kept."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = SECTION.match(lines[i])
        i += 1
        if not m:
            continue
        start = i
        while i < len(lines) and not lines[i].startswith("["):
            i += 1
        if m.group(2) not in forms:
            continue
        body = lines[start:i]
        if m.group(2) == "d3d-asm":
            body = [line for line in body if not line.lstrip().startswith("%")]
        yield start, m.group(1), m.group(2), "\n".join(body) + "\n"
