#!/usr/bin/env python3
"""CLI tests of shader-translate: options, exit statuses (0 success, 1 input
cannot be translated, 2 usage error) and messages. One test per case; ends
with "N passed, N failed".

usage: cli_test.py SHADER_TRANSLATE SOURCE_ROOT
"""
import glob
import os
import struct
import subprocess
import sys
import tempfile

TOOL = sys.argv[1]
ROOT = sys.argv[2]
SHADER = os.path.join(ROOT, "demos", "shaders", "increment_cs.dxbc")
# A DXIL container written by dxspv's own DXIL writer (see
# tests/unit/dxil/container_writer_test.cpp for the module it holds).
DXIL = os.path.join(ROOT, "tests", "cli", "data", "vs_passthrough.dxil")
CORPUS_DXIL = os.path.join(os.environ.get("DXSPV_CORPUS") or os.path.join(ROOT, "..", "shared", "corpus"), "dxil")
results = []

# A small DXIL module as dxc prints it (and as the .ll writer prints it back).
DXIL_BRANCH_LL = """target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%dx.types.Handle = type { i8* }
%dx.types.ResRet.i32 = type { i32, i32, i32, i32, i32 }
%struct.RWByteAddressBuffer = type { i32 }

define void @main() {
  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %2 = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %3 = shl i32 %2, 2
  %4 = call %dx.types.ResRet.i32 @dx.op.bufferLoad.i32(i32 68, %dx.types.Handle %1, i32 %3, i32 undef)
  %5 = extractvalue %dx.types.ResRet.i32 %4, 0
  %6 = icmp ult i32 %5, 10
  br i1 %6, label %7, label %9

; <label>:7
  %8 = add i32 %5, 1
  br label %9

; <label>:9
  %10 = phi i32 [ %8, %7 ], [ 0, %0 ]
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1, i32 %3, i32 undef, i32 %10, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
}

declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1) #1
declare i32 @dx.op.threadId.i32(i32, i32) #0
declare %dx.types.ResRet.i32 @dx.op.bufferLoad.i32(i32, %dx.types.Handle, i32, i32) #1
declare void @dx.op.bufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8) #2

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind readonly }
attributes #2 = { nounwind }

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.resources = !{!2}
!dx.entryPoints = !{!5}

!0 = !{i32 1, i32 0}
!1 = !{!"cs", i32 6, i32 0}
!2 = !{null, !3, null, null}
!3 = !{!4}
!4 = !{i32 0, %struct.RWByteAddressBuffer* undef, !"buf", i32 0, i32 0, i32 1, i32 11, i1 false, i1 false, i1 false, null}
!5 = !{void ()* @main, !"main", null, !2, !6}
!6 = !{i32 4, !7}
!7 = !{i32 64, i32 1, i32 1}
"""

DXIL_LL = """target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%dx.types.Handle = type { i8* }

define void @main() {
  %1 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)
  %2 = fmul fast float %1, 2.000000e+00
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %2)
  ret void
}

; Function Attrs: nounwind readnone
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32) #0

; Function Attrs: nounwind
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float) #1

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind }

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.entryPoints = !{!2}

!0 = !{i32 1, i32 0}
!1 = !{!"ps", i32 6, i32 0}
!2 = !{void ()* @main, !"main", null, null, null}
"""


def dxil_container(bitcode):
    """A DXBC container with one DXIL chunk: a pixel shader 6.0 program header and `bitcode`."""
    program = struct.pack("<II4sIII", 0 << 16 | 6 << 4, (24 + len(bitcode) + 3) // 4, b"DXIL", 0x100, 16,
                          len(bitcode)) + bitcode
    program += b"\x00" * (-len(program) % 4)
    chunk = b"DXIL" + struct.pack("<I", len(program)) + program
    header_size = 32 + 4
    return b"DXBC" + b"\x00" * 16 + struct.pack("<IIII", 1, header_size + len(chunk), 1, header_size) + chunk


def run(args, stdin=None):
    return subprocess.run([TOOL] + args, input=stdin, capture_output=True)


def case(name, args, status, stdout=None, stderr=None, stdin=None, check=None):
    p = run(args, stdin)
    problems = []
    if p.returncode != status:
        problems.append(f"exit {p.returncode}, want {status}")
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    for want, got, what in ((stdout, out, "stdout"), (stderr, err, "stderr")):
        for w in [want] if isinstance(want, str) else (want or []):
            if w not in got:
                problems.append(f"{what} lacks {w!r}")
    if check and not problems:
        msg = check(p)
        if msg:
            problems.append(msg)
    results.append((name, problems, err))


with tempfile.TemporaryDirectory() as tmp:
    garbage = os.path.join(tmp, "garbage.bin")
    with open(garbage, "wb") as f:
        f.write(b"\x00\x01garbage bytes that are no shader")
    truncated = os.path.join(tmp, "truncated.dxbc")
    with open(SHADER, "rb") as f:
        data = f.read()
    with open(truncated, "wb") as f:
        f.write(data[: len(data) // 2])
    out_spv = os.path.join(tmp, "out.spv")

    case("help", ["--help"], 0, stdout=["--source-type", "--target-type", "--experimental-ops", "--info"])
    case("version", ["-V"], 0, stdout="shader-translate (dxspv) ")
    case("print source types", ["--print-source-types"], 0, stdout="dxbc-tpf")
    case("print target types", ["--print-target-types", "-x", "dxbc-tpf"], 0, stdout="dxbc-tpf: ")
    case("unknown option", ["--frobnicate"], 2, stderr="unknown option '--frobnicate'")
    case("unknown source type", ["-x", "hlsl", SHADER], 2, stderr="unknown source type 'hlsl'")
    case("unknown target type", ["-b", "glsl", SHADER], 2, stderr="unknown target type 'glsl'")
    case("unknown env", ["--env", "vulkan9", SHADER], 2, stderr="unknown environment")
    case("missing option value", ["-o"], 2, stderr="needs a value")
    case("two inputs", [SHADER, SHADER], 2, stderr="more than one input")
    case("missing file", [os.path.join(tmp, "nope.dxbc")], 1, stderr="cannot open")
    case("info", ["--info", SHADER], 0, stdout=["stage: cs", "model: 5.0", "checksum: ok", "chunks: "])
    damaged = os.path.join(tmp, "damaged_checksum.dxbc")
    with open(damaged, "wb") as f:
        f.write(data[:4] + bytes([data[4] ^ 0x80]) + data[5:])
    case("checksum checked by default", ["-b", "spirv-text", damaged], 0, stderr="W0011")
    case("--no-checksum", ["--no-checksum", "-b", "spirv-text", damaged], 0,
         check=lambda p: "W0011" in p.stderr.decode() and "W0011 despite --no-checksum" or None)
    case("info on garbage", ["--info", garbage], 1, stderr=": E3")
    case("info on truncated", ["--info", truncated], 1, stderr=": E3")
    case("translate to file", ["-o", out_spv, SHADER], 0,
         check=lambda p: None if open(out_spv, "rb").read(4) == b"\x03\x02\x23\x07" else "no SPIR-V magic in the output")
    case("translate text, validate", ["--validate", "-b", "spirv-text", SHADER], 0,
         stdout=["OpEntryPoint GLCompute", "OpExecutionMode"], stderr="validation passed")
    for env in ("vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3"):
        case(f"validate {env}", ["--validate", "--env", env, "-b", "spirv-text", SHADER], 0, stderr="validation passed")
    case("stdin", ["-b", "vsir-text", "-"], 0, stdin=data, stdout="dcl_thread_group")
    case("-o - writes to stdout", ["-b", "vsir-text", "-o", "-", SHADER], 0, stdout="dcl_thread_group")
    case("explicit source type", ["-x", "dxbc-tpf", "-b", "vsir-text", SHADER], 0, stdout="ret")
    case("stats of a DXIL shader", ["--stats", "-b", "spirv-text", DXIL], 0, stderr="W6010: trampolines: 0, loops: 0")
    case("no stats for DXBC (already structured)", ["--stats", "-b", "spirv-text", SHADER], 0,
         check=lambda p: "W6010" in p.stderr.decode() and "unexpected W6010" or None)
    case("wrong explicit source type", ["-x", "dxbc-dxil", "-b", "vsir-text", SHADER], 1, stderr="E")
    case("undetectable input", ["-b", "spirv-text", garbage], 1, stderr="E0006")
    case("unimplemented pair", ["-b", "dxil-ll", SHADER], 1, stderr="E0003")
    bindings = os.path.join(tmp, "bindings.txt")
    with open(bindings, "w") as f:
        f.write("# the raw UAV at u0 goes to set 1, binding 7\nuav space=0 register=0 set=1 binding=7\n")
    bad_bindings = os.path.join(tmp, "bad_bindings.txt")
    with open(bad_bindings, "w") as f:
        f.write("uav space=0 register=zero set=1 binding=7\n")
    case("reflect", ["--reflect", SHADER], 0,
         stdout=['"stage": "cs"', '"thread_group_size": [64, 1, 1]', '"type": "uav"', '"binding": 2000'])
    case("reflect with bindings", ["--bindings", bindings, "--reflect", SHADER], 0, stdout=['"set": 1, "binding": 7'])
    case("bad binding file", ["--bindings", bad_bindings, SHADER], 1, stderr="bad_bindings.txt:1: bad value for register")
    case("missing binding file", ["--bindings", os.path.join(tmp, "none.txt"), SHADER], 1, stderr="cannot open")
    append_asm = os.path.join(tmp, "append.asm")
    with open(append_asm, "w") as f:
        f.write("cs_5_0\ndcl_uav_structured_opc u0, 4\ndcl_uav_structured_opc u1, 4\ndcl_temps 1\n"
                "dcl_thread_group 1, 1, 1\nimm_atomic_alloc r0.x, u0\nimm_atomic_consume r0.x, u1\nret\n")
    counter_bindings = os.path.join(tmp, "counter_bindings.txt")
    with open(counter_bindings, "w") as f:
        f.write("uav space=0 register=0..1 set=2 binding=3\ncounter space=0 register=1 set=2 binding=9\n")
    case("counter bindings: explicit and implicit", ["--bindings", counter_bindings, "--validate", "-b", "spirv-text",
         "-x", "d3d-asm", append_asm], 0,
         stdout=["OpDecorate %u1_counter Binding 9", "OpDecorate %u0_counter Binding 10",
                 "OpDecorateId %u0 CounterBuffer %u0_counter", "OpDecorateId %u1 CounterBuffer %u1_counter"])
    case("reflect counter bindings", ["--bindings", counter_bindings, "--reflect", "-x", "d3d-asm", append_asm], 0,
         stdout=['"counter_set": 2, "counter_binding": 10', '"counter_set": 2, "counter_binding": 9'])
    case("d3d-asm round trip", ["-b", "d3d-asm", SHADER], 0, stdout=["cs_5_0", "dcl_uav_raw u0", "store_raw u0.x, r0.x, r1.x"])
    case("truncated container", ["-b", "spirv-text", truncated], 1, stderr=": E3")

    # dxil-ll text and DXIL containers to dxil-ll.
    module_ll = os.path.join(tmp, "module.ll")
    with open(module_ll, "w") as f:
        f.write(DXIL_LL)
    case("dxil-ll to dxil-ll", ["-x", "dxil-ll", "-b", "dxil-ll", module_ll], 0,
         stdout=["%dx.types.Handle = type { i8* }", "define void @main() {",
                 "%1 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)",
                 "attributes #0 = { nounwind readnone }", "!dx.entryPoints = !{!2}"],
         check=lambda p: None if p.stdout.decode() == DXIL_LL else "the printed module differs from its text")
    case("dxil-ll detected", ["-b", "dxil-ll", module_ll], 0, stdout="define void @main() {")
    bad_ll = os.path.join(tmp, "bad.ll")
    with open(bad_ll, "w") as f:
        f.write("define void @main() {\n  %x = add i32 %y, 1\n  ret void\n}\n")
    case("dxil-ll undefined value", ["-x", "dxil-ll", "-b", "dxil-ll", bad_ll], 1,
         stderr="bad.ll:2:16: E5006: %y is not defined")
    case("dxil-ll input element without a signature", ["-x", "dxil-ll", "-b", "vsir-text", module_ll], 1,
         stderr="E8106: @main: signature element 0 is not declared")
    branch_ll = os.path.join(tmp, "branch.ll")
    with open(branch_ll, "w") as f:
        f.write(DXIL_BRANCH_LL)
    case("dxil-ll to structured vsir-text", ["-b", "vsir-text", branch_ll], 0,
         stdout=["cs_6_0 structured", "if_nz sr2", "endif", "store_raw u0[0].x, sr0, sr4"])
    case("dxil-ll to validated SPIR-V", ["--validate", "-b", "spirv-text", branch_ll], 0,
         stdout=["OpSelectionMerge", "OpLoopMerge"][:1], stderr="SPIR-V validation passed")
    case("dxil-ll CFG as Graphviz dot", ["-b", "cfg-dot", branch_ll], 0,
         stdout=["digraph cfg {", 'l0 -> l1 [label="T"];', 'l0 -> l2 [label="F"];'])
    case("cfg-dot of a DXBC shader", ["-b", "cfg-dot", SHADER], 1, stderr="E0003")
    bad_bitcode = os.path.join(tmp, "bad_bitcode.dxil")
    with open(bad_bitcode, "wb") as f:
        f.write(dxil_container(b"BC\xc0\xde" + b"\x00" * 12))
    case("dxbc-dxil bad bitcode", ["-b", "dxil-ll", bad_bitcode], 1, stderr=": E7")
    case("dxbc-dxil explicit", ["-x", "dxbc-dxil", "-b", "dxil-ll", bad_bitcode], 1, stderr=": E7")
    case("dxbc-tpf given as dxbc-dxil", ["-x", "dxbc-dxil", "-b", "dxil-ll", SHADER], 1, stderr="E0010")
    corpus = sorted(glob.glob(os.path.join(ROOT, "..", "shared", "corpus", "dxil", "*.dxil")))
    if corpus:
        case("dxbc-dxil to dxil-ll (corpus)", ["-b", "dxil-ll", corpus[0]], 0,
             stdout=["target triple = \"dxil-ms-dx\"", "define void @"])
    # -b dxbc-dxil: re-encode a DXIL container (module → LLVM 3.7 bitcode → container).
    out_dxil = os.path.join(tmp, "out.dxil")
    again_dxil = os.path.join(tmp, "again.dxil")
    case("dxbc-dxil re-encode", ["-b", "dxbc-dxil", "-o", out_dxil, DXIL], 0,
         check=lambda p: None if open(out_dxil, "rb").read(4) == b"DXBC" else "no DXBC magic in the output")
    case("dxbc-dxil output info", ["--info", out_dxil], 0,
         stdout=["stage: vs", "model: 6.6", "checksum: ok", "chunks: ISG1,OSG1,DXIL", "DXIL 1.6"])
    case("dxbc-dxil to stdout", ["-x", "dxbc-dxil", "-b", "dxbc-dxil", DXIL], 0,
         check=lambda p: None if p.stdout == open(DXIL, "rb").read() else "re-encoding our own container changed it")
    case("dxbc-dxil is a fixed point", ["-b", "dxbc-dxil", "-o", again_dxil, out_dxil], 0,
         check=lambda p: None if open(again_dxil, "rb").read() == open(out_dxil, "rb").read() else "output differs")
    case("dxbc-dxil from SM5 tokens", ["-b", "dxbc-dxil", SHADER], 1, stderr="E0003")
    with open(DXIL, "rb") as f:
        dxil_bytes = f.read()
    broken = os.path.join(tmp, "broken.dxil")
    with open(broken, "wb") as f:
        f.write(dxil_bytes[:-16])
    case("dxbc-dxil truncated container", ["-b", "dxbc-dxil", broken], 1, stderr=": E")
    corpus = sorted(f for f in os.listdir(CORPUS_DXIL) if f.endswith(".dxil")) if os.path.isdir(CORPUS_DXIL) else []
    if corpus:
        src = os.path.join(CORPUS_DXIL, corpus[0])
        case("dxbc-dxil corpus container", ["-b", "dxbc-dxil", "-o", out_dxil, src], 0)
        case("dxbc-dxil corpus output info", ["--info", out_dxil], 0, stdout=["checksum: ok", "DXIL"])

failed = 0
for name, problems, err in results:
    if problems:
        failed += 1
        print(f"FAIL {name}: {'; '.join(problems)}\n  stderr: {err.strip()[:400]}")
    else:
        print(f"ok   {name}")
print(f"{len(results) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
