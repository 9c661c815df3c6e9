#!/usr/bin/env python3
"""Turn the DXIL op data file (dxil_ops.txt) into C++ tables.

Usage: gen_dxil_ops.py DATA OUT_HEADER OUT_SOURCE

The data file format is described at the top of dxil_ops.txt. The data is
validated first (duplicate ids or names, gaps in a table, unknown classes,
stages, overloads, attributes, flags, shader models); any problem stops the
build with 'DATA:LINE: error: ...' messages and exit status 1.
"""

import re
import sys

SCALARS = ['void', 'half', 'float', 'double', 'i1', 'i8', 'i16', 'i32', 'i64', 'udt', 'object']
SCALAR_ENUM = {'void': 'void_', 'half': 'f16', 'float': 'f32', 'double': 'f64', 'i1': 'i1', 'i8': 'i8',
               'i16': 'i16', 'i32': 'i32', 'i64': 'i64', 'udt': 'udt', 'object': 'object'}
ATTRIBUTES = ['readnone', 'readonly', 'argmemonly', 'noduplicate', 'noreturn']
FLAGS = ['wave', 'barrier', 'derivative', 'gradient', 'feedback', 'convergent', 'uniform_inputs']
# Stage name -> bit (the dxspv::ShaderStage value, which is the DXIL shader kind).
STAGES = {'pixel': 0, 'vertex': 1, 'geometry': 2, 'hull': 3, 'domain': 4, 'compute': 5, 'library': 6,
          'raygeneration': 7, 'intersection': 8, 'anyhit': 9, 'closesthit': 10, 'miss': 11,
          'callable': 12, 'mesh': 13, 'amplification': 14, 'node': 15}
MAX_DIMS = 4
OP_KEYS = {'name', 'class', 'overloads', 'attributes', 'stages', 'min_sm', 'flags', 'category', 'version_of'}
REQUIRED_OP_KEYS = ['name', 'class', 'overloads', 'attributes', 'stages', 'min_sm', 'flags']
TABLE_KEYS = {'feature', 'description', 'experimental'}
IDENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')


class DataError(Exception):
    pass


class Reporter:
    def __init__(self, path):
        self.path = path
        self.errors = []

    def error(self, line, msg):
        self.errors.append(f'{self.path}:{line}: error: {msg}')


def parse_sm(text):
    m = re.fullmatch(r'(\d+)\.(\d+)', text.strip())
    if not m:
        return None
    major, minor = int(m.group(1)), int(m.group(2))
    if major != 6 or minor > 99:
        return None
    return (major, minor)


def parse_dim(text):
    """'half,float,vec(half,float)' -> (set of scalars, set of vector element types) or raises."""
    scalars, vectors = [], []
    rest = text.strip()
    m = re.search(r'vec\(([^()]*)\)', rest)
    if m:
        vectors = [v.strip() for v in m.group(1).split(',') if v.strip()]
        rest = (rest[:m.start()] + rest[m.end():]).strip(' ,')
        if 'vec(' in rest:
            raise DataError(f"more than one vec(...) in overload dimension '{text}'")
        if not vectors:
            raise DataError(f"empty vec() in overload dimension '{text}'")
    if rest:
        scalars = [s.strip() for s in rest.split(',')]
    for t in scalars + vectors:
        if t not in SCALARS:
            raise DataError(f"unknown overload type '{t}' (known: {', '.join(SCALARS)})")
    for t in vectors:
        if t in ('void', 'udt', 'object'):
            raise DataError(f"'{t}' cannot be a vector element type")
    if 'void' in scalars and (len(scalars) > 1 or vectors):
        raise DataError("'void' must be alone in its overload dimension")
    if len(set(scalars)) != len(scalars) or len(set(vectors)) != len(vectors):
        raise DataError(f"duplicate type in overload dimension '{text}'")
    if not scalars and not vectors:
        raise DataError('empty overload dimension')
    return scalars, vectors


def parse(path):
    rep = Reporter(path)
    classes = {}      # name -> (function, line)
    tables = []       # dicts
    section = None
    cur = None
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith('#'):
            continue
        m = re.fullmatch(r'\[(\w+)(?:\s+(\S+))?\]', line)
        if m:
            kind, arg = m.group(1), m.group(2)
            if kind == 'classes' and arg is None:
                section, cur = 'classes', None
            elif kind == 'table' and arg and IDENT.match(arg):
                cur = {'name': arg, 'line': lineno, 'fields': {}, 'ops': []}
                tables.append(cur)
                section = 'table'
            elif kind == 'op' and arg is not None:
                if not tables:
                    rep.error(lineno, 'op record before any [table ...] section')
                    section = None
                    continue
                try:
                    index = int(arg, 0)
                except ValueError:
                    rep.error(lineno, f"op index '{arg}' is not a number")
                    section = None
                    continue
                cur = {'index': index, 'line': lineno, 'fields': {}, 'overloads': []}
                tables[-1]['ops'].append(cur)
                section = 'op'
            else:
                rep.error(lineno, f"unknown section '{line}' (expected [classes], [table Name] or [op N])")
                section = None
            continue
        if '=' not in line:
            rep.error(lineno, f"expected 'key = value', got '{line}'")
            continue
        key, value = (s.strip() for s in line.split('=', 1))
        if section == 'classes':
            if not IDENT.match(key) or not IDENT.match(value):
                rep.error(lineno, f"bad class line '{line}' (expected 'OpClass = function')")
            elif key in classes:
                rep.error(lineno, f"class '{key}' declared twice (first on line {classes[key][1]})")
            else:
                classes[key] = (value, lineno)
        elif section == 'table':
            if key not in TABLE_KEYS:
                rep.error(lineno, f"unknown table field '{key}'")
            elif key in cur['fields']:
                rep.error(lineno, f"table field '{key}' given twice")
            else:
                cur['fields'][key] = (value, lineno)
        elif section == 'op':
            if key not in OP_KEYS:
                rep.error(lineno, f"unknown op field '{key}' (known: {', '.join(sorted(OP_KEYS))})")
            elif key == 'overloads':
                cur['overloads'].append((value, lineno))
            elif key in cur['fields']:
                rep.error(lineno, f"op field '{key}' given twice")
            else:
                cur['fields'][key] = (value, lineno)
        else:
            rep.error(lineno, 'field outside of a section')
    return rep, classes, tables


def validate(rep, classes, tables):
    """Checks the parsed data and fills in the decoded values."""
    if not tables:
        rep.error(1, 'no [table ...] section')
    features = {}
    names = {}
    for t in tables:
        fv = t['fields'].get('feature')
        if fv is None:
            rep.error(t['line'], f"table {t['name']} has no feature id")
            t['feature'] = 0
        else:
            try:
                t['feature'] = int(fv[0], 0)
                if not 0 <= t['feature'] <= 0xffff:
                    raise ValueError
            except ValueError:
                rep.error(fv[1], f"feature id '{fv[0]}' is not a 16-bit number")
                t['feature'] = 0
        if t['feature'] in features:
            rep.error(t['line'], f"feature id 0x{t['feature']:04x} used by tables {features[t['feature']]} and {t['name']}")
        features[t['feature']] = t['name']
        ev = t['fields'].get('experimental', ('no', t['line']))
        if ev[0] not in ('yes', 'no'):
            rep.error(ev[1], "experimental must be 'yes' or 'no'")
        t['experimental'] = ev[0] == 'yes'
        if t['experimental'] != (t['feature'] != 0):
            rep.error(t['line'], f"table {t['name']}: feature 0x0000 is the stable table and every other feature id is experimental")
        t['description'] = t['fields'].get('description', ('', 0))[0]
        if not t['ops']:
            rep.error(t['line'], f"table {t['name']} has no ops")
        seen = {}
        for op in t['ops']:
            if op['index'] in seen:
                rep.error(op['line'], f"table {t['name']}: op index {op['index']} given twice (first on line {seen[op['index']]})")
            seen[op['index']] = op['line']
            if not 0 <= op['index'] <= 0xffff:
                rep.error(op['line'], f"op index {op['index']} does not fit in 16 bits")
        for expected, index in enumerate(sorted(seen)):
            if index != expected:
                rep.error(seen[index], f"table {t['name']}: gap before op index {index} (op {expected} is missing; a table is contiguous from 0)")
                break
        t['ops'].sort(key=lambda o: o['index'])
        for op in t['ops']:
            validate_op(rep, classes, t, op, names)
    for t in tables:
        by_name = {op.get('name'): op for op in t['ops']}
        for op in t['ops']:
            vo = op['fields'].get('version_of')
            op['version_of_index'] = -1
            if vo:
                target = by_name.get(vo[0])
                if target is None:
                    rep.error(vo[1], f"version_of '{vo[0]}' is not an op of table {t['name']}")
                elif target is op:
                    rep.error(vo[1], 'an op cannot be a version of itself')
                else:
                    op['version_of_index'] = target['index']


def validate_op(rep, classes, table, op, names):
    f = op['fields']
    for k in REQUIRED_OP_KEYS:
        if k != 'overloads' and k not in f:
            rep.error(op['line'], f"op {op['index']} of table {table['name']} has no '{k}'")
    if not op['overloads']:
        rep.error(op['line'], f"op {op['index']} of table {table['name']} has no 'overloads'")
    name = f.get('name', ('?', op['line']))
    op['name'] = name[0]
    if not IDENT.match(name[0]):
        rep.error(name[1], f"op name '{name[0]}' is not an identifier")
    elif name[0] in names:
        rep.error(name[1], f"op name '{name[0]}' used twice (first on line {names[name[0]]})")
    names[name[0]] = name[1]
    cls = f.get('class', ('?', op['line']))
    op['class'] = cls[0]
    if 'class' in f and cls[0] not in classes:
        rep.error(cls[1], f"unknown op class '{cls[0]}' (declare it in [classes])")
    sm = f.get('min_sm')
    op['min_sm'] = (6, 0)
    if sm:
        parsed = parse_sm(sm[0])
        if parsed is None:
            rep.error(sm[1], f"bad shader model '{sm[0]}' (expected 6.x)")
        else:
            op['min_sm'] = parsed
    attrs = f.get('attributes')
    op['attributes'] = []
    if attrs and attrs[0] != '-':
        for a in (s.strip() for s in attrs[0].split(',')):
            if a not in ATTRIBUTES:
                rep.error(attrs[1], f"unknown attribute '{a}' (known: {', '.join(ATTRIBUTES)})")
            else:
                op['attributes'].append(a)
    flags = f.get('flags')
    op['flags'] = []
    if flags and flags[0] != '-':
        for a in (s.strip() for s in flags[0].split(',')):
            if a not in FLAGS:
                rep.error(flags[1], f"unknown flag '{a}' (known: {', '.join(FLAGS)})")
            else:
                op['flags'].append(a)
    st = f.get('stages')
    op['stages'] = 0
    if st:
        if st[0] == 'all':
            op['stages'] = sum(1 << b for b in STAGES.values())
        else:
            for s in (x.strip() for x in st[0].split(',')):
                if s not in STAGES:
                    rep.error(st[1], f"unknown shader stage '{s}' (known: all, {', '.join(STAGES)})")
                else:
                    op['stages'] |= 1 << STAGES[s]
    op['steps'] = []
    prev = None
    for value, lineno in op['overloads']:
        m = re.fullmatch(r'\s*(\d+\.\d+)\s*:\s*(.+)', value)
        if not m:
            rep.error(lineno, f"bad overloads '{value}' (expected 'SM: types')")
            continue
        step_sm = parse_sm(m.group(1))
        if step_sm is None:
            rep.error(lineno, f"bad shader model '{m.group(1)}' in overloads")
            continue
        if prev is not None and step_sm <= prev:
            rep.error(lineno, 'overload lines must be in increasing shader model order')
        if prev is None and step_sm < op['min_sm']:
            rep.error(lineno, f"overloads start at SM {m.group(1)}, before the op's min_sm")
        prev = step_sm
        dims = []
        try:
            dims = [parse_dim(d) for d in m.group(2).split(';')]
        except DataError as e:
            rep.error(lineno, str(e))
            continue
        if len(dims) > MAX_DIMS:
            rep.error(lineno, f'more than {MAX_DIMS} overload dimensions')
            continue
        if len(dims) > 1 and any(d[0] == ['void'] for d in dims):
            rep.error(lineno, "'void' cannot be one of several overload dimensions")
        if op['steps'] and len(op['steps'][-1][1]) != len(dims):
            rep.error(lineno, 'every overloads line of an op needs the same number of dimensions')
        op['steps'].append((step_sm, dims))
    if op['class'] == 'Reserved' and op['attributes'] + op['flags']:
        rep.error(op['line'], 'a reserved slot has no attributes or flags')


def mask(types):
    m = 0
    for t in types:
        m |= 1 << SCALARS.index(t)
    return m


def cstr(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def generate(classes, tables, data_name):
    class_names = sorted(classes, key=str.lower)
    h = []
    h.append(f'// Generated by gen_dxil_ops.py from {data_name}. Do not edit.')
    h.append('#pragma once')
    h.append('')
    h.append('#include <cstdint>')
    h.append('')
    h.append('namespace dxspv::dxil::ops {')
    h.append('')
    h.append('/// Every DXIL op: the value is the full 32-bit opcode (feature id << 16 | op index).')
    h.append('enum class OpId : uint32_t {')
    for t in tables:
        h.append(f"    // table {t['name']} (feature 0x{t['feature']:04x})")
        for op in t['ops']:
            h.append(f"    {op['name']} = 0x{(t['feature'] << 16) | op['index']:08x}u,")
    h.append('};')
    h.append('')
    h.append('/// Every op class (the function name shape dx.op.<function>.<overload>).')
    h.append('enum class OpClass : uint16_t {')
    for c in class_names:
        h.append(f'    {c},')
    h.append('};')
    h.append('')
    h.append(f'inline constexpr uint32_t op_class_count = {len(class_names)};')
    h.append(f'inline constexpr uint32_t table_count = {len(tables)};')
    for t in tables:
        h.append(f"inline constexpr uint16_t feature_{t['name']} = 0x{t['feature']:04x};")
        h.append(f"inline constexpr uint32_t {t['name']}_count = {len(t['ops'])};")
    h.append('')
    h.append('} // namespace dxspv::dxil::ops')
    h.append('')

    c = []
    c.append(f'// Generated by gen_dxil_ops.py from {data_name}. Do not edit.')
    c.append('#include "dxil/ops/ops.h"')
    c.append('')
    c.append('namespace dxspv::dxil::ops::detail {')
    c.append('')
    c.append('namespace {')
    c.append('')
    c.append('constexpr uint8_t A_readnone = uint8_t(Attribute::readnone), A_readonly = uint8_t(Attribute::readonly),')
    c.append('    A_argmemonly = uint8_t(Attribute::argmemonly), A_noduplicate = uint8_t(Attribute::noduplicate),')
    c.append('    A_noreturn = uint8_t(Attribute::noreturn);')
    c.append('constexpr uint16_t ' + ', '.join(f'F_{f} = uint16_t(Flag::{f})' for f in FLAGS + ['reserved', 'experimental']) + ';')
    c.append('')
    c.append('const OverloadStep overload_steps[] = {')
    step_index = 0
    for t in tables:
        for op in t['ops']:
            op['step_first'] = step_index
            for sm, dims in op['steps']:
                ds = ', '.join(f'{{0x{mask(s):03x}, 0x{mask(v):03x}}}' for s, v in dims)
                c.append(f"    {{{sm[0]}, {sm[1]}, {len(dims)}, {{{ds}}}}}, // {op['name']}")
                step_index += 1
    c.append('};')
    c.append('')
    for t in tables:
        c.append(f"const OpInfo {t['name']}_ops[] = {{")
        for op in t['ops']:
            attrs = ' | '.join(f'A_{a}' for a in op['attributes']) or '0'
            flags = list(op['flags'])
            if op['class'] == 'Reserved':
                flags.append('reserved')
            if t['experimental']:
                flags.append('experimental')
            fl = ' | '.join(f'F_{f}' for f in flags) or '0'
            cat = op['fields'].get('category', ('', 0))[0]
            opcode = (t['feature'] << 16) | op['index']
            c.append(f"    {{{cstr(op['name'])}, OpClass::{op['class']}, 0x{opcode:08x}u, "
                     f"&overload_steps[{op['step_first']}], {len(op['steps'])}, "
                     f"uint8_t({attrs}), uint16_t({fl}), 0x{op['stages']:05x}u, "
                     f"{op['min_sm'][0]}, {op['min_sm'][1]}, {op['version_of_index']}, {cstr(cat)}}},")
        c.append('};')
        c.append('')
    c.append('} // namespace')
    c.append('')
    c.append('const ClassInfo classes[op_class_count] = {')
    for cn in class_names:
        c.append(f'    {{{cstr(cn)}, {cstr(classes[cn][0])}}},')
    c.append('};')
    c.append('')
    c.append('const TableInfo tables[table_count] = {')
    for t in tables:
        c.append(f"    {{{cstr(t['name'])}, {cstr(t['description'])}, 0x{t['feature']:04x}, "
                 f"{'true' if t['experimental'] else 'false'}, {{{t['name']}_ops, {len(t['ops'])}}}}},")
    c.append('};')
    c.append('')
    c.append('} // namespace dxspv::dxil::ops::detail')
    c.append('')
    return '\n'.join(h), '\n'.join(c)


def main(argv):
    if len(argv) != 4:
        print('usage: gen_dxil_ops.py DATA OUT_HEADER OUT_SOURCE', file=sys.stderr)
        return 2
    data, out_h, out_cpp = argv[1:]
    try:
        rep, classes, tables = parse(data)
    except OSError as e:
        print(f'{data}: error: {e}', file=sys.stderr)
        return 1
    if not rep.errors:
        validate(rep, classes, tables)
    if rep.errors:
        for e in rep.errors:
            print(e, file=sys.stderr)
        print(f'gen_dxil_ops.py: {len(rep.errors)} error(s) in {data}; no tables generated', file=sys.stderr)
        return 1
    import os
    header, source = generate(classes, tables, os.path.basename(data))
    for path, text in ((out_h, header), (out_cpp, source)):
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
