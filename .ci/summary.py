#!/usr/bin/env python3
"""Prints meson's test results as the closing 'N passed, N failed, N skipped' line.

usage: summary.py BUILD_DIR... (reads each meson-logs/testlog*.json; a missing log counts as a failure)
"""
import glob
import json
import os
import sys

counts = {'passed': 0, 'failed': 0, 'skipped': 0}
paths = []
for build in sys.argv[1:]:
    found = glob.glob(os.path.join(build, 'meson-logs', 'testlog*.json'))
    if not found:
        print(f'{build}: no test log', file=sys.stderr)
        counts['failed'] += 1
    paths += found
for path in paths:
    with open(path) as f:
        for line in f:
            result = json.loads(line)['result']
            if result in ('OK', 'EXPECTEDFAIL'):
                counts['passed'] += 1
            elif result == 'SKIP':
                counts['skipped'] += 1
            else:
                counts['failed'] += 1
print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
