#!/usr/bin/env python3
"""Prints meson's test results as the closing 'N passed, N failed, N skipped' line."""
import json
import sys

counts = {'passed': 0, 'failed': 0, 'skipped': 0}
for path in sys.argv[1:]:
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
