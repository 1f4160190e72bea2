#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The admin reference's tables and the man pages come from one source.

    scripts/docs.py sync     make docs: rewrite docs/admin.md's generated blocks
    scripts/docs.py check    make docs-check: fail on any drift

docs/man/xen-netback.4.md holds the module parameter, xenstore key and
ethtool counter tables, each between <!-- man:NAME:start --> and
<!-- man:NAME:end --> lines.  docs/admin.md has the same markers; `sync`
copies each block from the source into docs/admin.md.  `check` runs these
tests, one line each, then "N passed, N failed":

  admin:NAME     docs/admin.md's block equals the source's
  man:PAGE       scripts/md2man converts docs/man/PAGE.md (and
                 tests/man/sample.7.md, every construct it knows), and
                 neither `groff -man -Tutf8 -ww` nor `man --warnings -l`
                 has anything to say about the page
  params         the parameters of main.c (module_param*), of the
                 source's table and of debian/modprobe.d/xen-netback-wg.conf
                 are the same
  counters       every ethtool -S name in stats.c is in the counter table
  version        VERSION = debian/changelog's version = NEWS's first entry
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = 'docs/man/xen-netback.4.md'
# Where the tables are copied to.
TARGET = 'docs/admin.md'
CONF = 'debian/modprobe.d/xen-netback-wg.conf'
BLOCK = re.compile(r'^<!-- man:([a-z0-9-]+):start -->\n(.*?)^<!-- man:\1:end -->$',
                   re.M | re.S)


def read(path):
    with open(os.path.join(TOP, path), encoding='utf-8') as f:
        return f.read()


def blocks(text):
    return {m.group(1): m.group(2) for m in BLOCK.finditer(text)}


def table_first_cells(block):
    """The code spans of each table row's first cell."""
    names = []
    for line in block.split('\n'):
        if not line.startswith('|') or re.match(r'\|\s*:?-{3}', line):
            continue
        first = line.strip('|').split('|')[0]
        names += re.findall(r'`([^`]+)`', first)
    return names


def sync():
    src = blocks(read(SOURCE))
    text = read(TARGET)
    missing = [n for n in src if n not in blocks(text)]
    if missing:
        sys.stderr.write('docs: %s lacks the markers of %s: add\n'
                         % (TARGET, ', '.join(missing)))
        for n in missing:
            sys.stderr.write('  <!-- man:%s:start -->\n  <!-- man:%s:end -->\n'
                             % (n, n))
        sys.stderr.write('where the block belongs\n')
        return 1

    def repl(m):
        name = m.group(1)
        if name not in src:
            return m.group(0)
        return ('<!-- man:%s:start -->\n%s<!-- man:%s:end -->'
                % (name, src[name], name))
    new = BLOCK.sub(repl, text)
    if new != text:
        with open(os.path.join(TOP, TARGET), 'w', encoding='utf-8') as f:
            f.write(new)
        print('docs: %s rewritten from %s' % (TARGET, SOURCE))
    else:
        print('docs: %s already matches %s' % (TARGET, SOURCE))
    return 0


class Tests:
    def __init__(self):
        self.passed = self.failed = 0

    def result(self, name, ok, why=''):
        if ok:
            self.passed += 1
            print('PASS %s' % name)
        else:
            self.failed += 1
            print('FAIL %s: %s' % (name, why))


def check_tables(t):
    src = blocks(read(SOURCE))
    copy = blocks(read(TARGET))
    for name, body in src.items():
        if name not in copy:
            t.result('admin:' + name, False,
                     '%s has no man:%s markers' % (TARGET, name))
        elif copy[name] != body:
            t.result('admin:' + name, False,
                     '%s differs from %s: run make docs' % (TARGET, SOURCE))
        else:
            t.result('admin:' + name, True)
    for name in copy:
        if name not in src:
            t.result('admin:' + name, False,
                     '%s has a man:%s block that %s lacks' % (TARGET, name, SOURCE))


def check_pages(t):
    env = dict(os.environ, LC_ALL='C.UTF-8', MANWIDTH='80', MAN_DISABLE_SECCOMP='1')
    with tempfile.TemporaryDirectory() as out:
        for md in sorted(glob.glob(os.path.join(TOP, 'docs/man/*.md')) +
                         glob.glob(os.path.join(TOP, 'tests/man/*.md'))):
            page = os.path.basename(md)[:-3]
            name = 'man:' + page
            r = subprocess.run([sys.executable, os.path.join(TOP, 'scripts/md2man'),
                                '-o', out, md], capture_output=True, text=True)
            if r.returncode:
                t.result(name, False, 'md2man: ' + r.stderr.strip())
                continue
            path = os.path.join(out, page)
            problems = []
            g = subprocess.run(['groff', '-man', '-Tutf8', '-ww', '-z', path],
                               capture_output=True, text=True, env=env)
            if g.returncode or g.stderr.strip():
                problems.append('groff -ww: ' + g.stderr.strip())
            m = subprocess.run(['man', '--warnings', '-l', path],
                               capture_output=True, text=True, env=env)
            if m.returncode or m.stderr.strip():
                problems.append('man --warnings: ' + m.stderr.strip())
            if not m.stdout.strip():
                problems.append('man -l printed nothing')
            t.result(name, not problems, '; '.join(problems))


def check_params(t):
    main_c = read('drivers/net/xen-netback/main.c')
    code = set(re.findall(r'^module_param(?:_named|_cb)?\(\s*(\w+)', main_c, re.M))
    doc = set(table_first_cells(blocks(read(SOURCE)).get('params', '')))
    conf = set(re.findall(r'^#?\s*options\s+xen_netback\s+(\w+)=', read(CONF), re.M))
    why = []
    for what, names in (('the params table', doc), (CONF, conf)):
        if names - code:
            why.append('%s names what main.c lacks: %s'
                       % (what, ' '.join(sorted(names - code))))
        if code - names:
            why.append('%s lacks %s' % (what, ' '.join(sorted(code - names))))
    if not code:
        why.append('no module_param in main.c')
    t.result('params', not why, '; '.join(why))


def check_counters(t):
    stats_c = read('drivers/net/xen-netback/stats.c')
    code = set(re.findall(r'^\s*XNB_STAT\((\w+)\),', stats_c, re.M))
    rows = re.search(r'xnb_row_names\[[^]]*\]\[[^]]*\]\s*=\s*\{(.*?)\};', stats_c, re.S)
    if rows:
        code |= set(re.findall(r'"(\w+)"', rows.group(1)))
    doc = set(table_first_cells(blocks(read(SOURCE)).get('counters', '')))
    why = []
    if not code:
        why.append('found no counter names in stats.c (XNB_STAT(), '
                   'xnb_row_names): teach scripts/docs.py its new form')
    if code - doc:
        why.append('the counters table lacks %s' % ' '.join(sorted(code - doc)))
    t.result('counters', not why, '; '.join(why))


def check_version(t):
    version = read('VERSION').strip()
    m = re.match(r'\S+ \(([^)]+)\)', read('debian/changelog'))
    changelog = m.group(1) if m else None
    m = re.search(r'^xen-netback-wg (\S+) \(', read('NEWS'), re.M)
    news = m.group(1) if m else None
    why = []
    if changelog != version:
        why.append('debian/changelog says %s, VERSION %s' % (changelog, version))
    if news != version:
        why.append("NEWS's first entry is %s, VERSION %s" % (news, version))
    t.result('version', not why, '; '.join(why))


def check():
    t = Tests()
    check_tables(t)
    check_pages(t)
    check_params(t)
    check_counters(t)
    check_version(t)
    print('%d passed, %d failed' % (t.passed, t.failed))
    return 1 if t.failed else 0


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ('sync', 'check'):
        sys.stderr.write('usage: scripts/docs.py sync|check\n')
        return 2
    return sync() if sys.argv[1] == 'sync' else check()


if __name__ == '__main__':
    sys.exit(main())
