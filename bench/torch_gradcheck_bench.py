#!/usr/bin/env python3
"""PyTorch's gradcheck on the cases `gradcheck bench` times, for the README's comparison.

Run with Debian's python3-torch (1.13): /usr/bin/python3 bench/torch_gradcheck_bench.py
Prints the median wall time of 5 runs (after one warm-up) of torch.autograd.gradcheck, full and fast mode, on
float64 inputs drawn uniformly from [-2, 2].
"""
import statistics
import time

import torch
from torch.autograd import gradcheck


def timed(fn, inputs, fast, repeats=5):
    gradcheck(fn, inputs, fast_mode=fast)  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        assert gradcheck(fn, inputs, fast_mode=fast)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def uniform(*shape):
    return (torch.rand(*shape, dtype=torch.float64) * 4 - 2).requires_grad_(True)


def main():
    torch.manual_seed(0)
    cases = [
        ("tanh 32x32", torch.tanh, (uniform(32, 32),)),
        ("tanh 64x64 (4096)", torch.tanh, (uniform(64, 64),)),
        ("matmul 32x32 @ 32x32", torch.matmul, (uniform(32, 32), uniform(32, 32))),
    ]
    print(f"{'CASE':26} {'FULL':>12} {'FAST':>12}")
    for label, fn, inputs in cases:
        full = timed(fn, inputs, fast=False, repeats=1 if "4096" in label else 5)
        fast = timed(fn, inputs, fast=True)
        print(f"{label:26} {full * 1e3:9.1f} ms {fast * 1e3:9.1f} ms")
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")


if __name__ == "__main__":
    main()
