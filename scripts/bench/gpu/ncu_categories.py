#!/usr/bin/env python3
"""Sums the device time of an `ncu --csv --print-summary per-kernel --metrics gpu__time_duration.sum`
report by kind of kernel (matrix products, attention, elementwise, ...), per update.
usage: ncu_categories.py REPORT.csv UPDATES   (prints a Markdown table)"""
import csv
import sys

# first matching rule wins: (substring of the kernel name, category)
RULES = [
    (("sdpa", "attention", "fmha"), "attention (cuDNN flash, forward + backward)"),
    (("nvjet", "gemm", "cutlass"), "matrix products (cuBLAS)"),
    (("adam",), "optimizer (fused Adam)"),
    (("layer_norm", "gammabeta"), "layer norm forward + backward"),
    (("softmax", "nll"), "log-softmax and loss"),
    (("copy",), "casts and copies"),
    (("reduce",), "reductions"),
    (("elementwise",), "other elementwise (adds, dropout, masks)"),
]


def category(name):
    low = name.lower()
    for keys, label in RULES:
        if any(k in low for k in keys):
            return label
    return "other"


def main():
    path, updates = sys.argv[1], float(sys.argv[2])
    totals, launches = {}, 0
    for row in csv.reader(open(path)):
        if len(row) < 15 or not row[0].isdigit():
            continue  # the header and ncu's own lines
        calls, mean_ns = int(row[8]), float(row[14].replace(",", ""))
        totals[category(row[3])] = totals.get(category(row[3]), 0.0) + calls * mean_ns / 1e6
        launches += calls
    all_ms = sum(totals.values())
    print(f"| kernels per update: {launches / updates:.0f}, {all_ms / updates:.1f} ms | ms per update | share |")
    print("|---|---|---|")
    for label, ms in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"| {label} | {ms / updates:.1f} | {100 * ms / all_ms:.0f}% |")


if __name__ == "__main__":
    main()
