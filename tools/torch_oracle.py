#!/usr/bin/python3
"""PyTorch autograd as an independent oracle for gradcheck specs.

What it checks: for each spec (in the given YAML spec files) whose op is in ORACLE below and whose inputs are
written out (init: values / constant / range -- random inits cannot be reproduced outside gradcheck), it
rebuilds the op in PyTorch (float64), prints the forward output and the full Jacobian d out / d input of every
checked floating input, computed by torch.autograd. Given a gradcheck JSON report (--report), it also looks up
each gradient block's worst element there and prints ND4J's analytic value, gradcheck's numerical value and
PyTorch's value side by side, saying which of the two PyTorch agrees with.

It is used to verify the `expect: fail` / `expect: error` specs under specs/ (see docs/nd4j-findings.md):
a mismatch is only called an ND4J bug when PyTorch agrees with the numerical Jacobian, not the analytic one.

Usage (Debian's python with python3-torch and python3-yaml):
    java -jar gradcheck.jar check specs/shape/gather.yaml --format json > /tmp/r.json
    /usr/bin/python3 tools/torch_oracle.py specs/shape/gather.yaml --report /tmp/r.json [--only NAME] [--jacobian]
"""
import argparse
import json
import sys

import numpy as np
import torch
import torch.nn.functional as F
import yaml

torch.set_default_dtype(torch.float64)


def dims(attrs, key="dimensions"):
    d = attrs.get(key)
    if d is None:
        return None
    return [int(v) for v in (d if isinstance(d, list) else [d])]


def upsampling2d(ins, a):
    x = ins[0]
    fh, fw = int(a["factorH"]), int(a["factorW"])
    nchw = int(a.get("isNCHW", 1)) != 0          # ND4J upsampling2d: isNCHW 1 = NCHW, 0 = NHWC
    h_ax, w_ax = (2, 3) if nchw else (1, 2)
    return x.repeat_interleave(fh, dim=h_ax).repeat_interleave(fw, dim=w_ax)


def batchnorm(ins, a):
    x, mean, var, gamma, beta = ins
    axis = dims(a)[0]
    shape = [1] * x.dim()
    shape[axis] = -1
    r = lambda t: t.reshape(shape)
    return (x - r(mean)) / torch.sqrt(r(var) + float(a["epsilon"])) * r(gamma) + r(beta)


def clipbynorm(ins, a):
    x = ins[0]
    c = float(a["clipValue"])
    d = dims(a)
    n = torch.sqrt((x * x).sum(dim=d, keepdim=True)) if d else torch.sqrt((x * x).sum())
    return torch.where(n > c, x * c / n, x)


def lrn(ins, a):
    # ND4J's lrn kernel normalizes over the LAST axis (TF-style, channels last), whatever the docs say about NCHW:
    # out_c = x_c / (bias + alpha * sum_{|c'-c| <= depth} x_c'^2)^beta
    x = ins[0]
    depth = int(a["depth"])
    n = x.shape[-1]
    sq = F.pad(x * x, (depth, depth))
    window = sum(sq[..., k:k + n] for k in range(2 * depth + 1))
    return x / (float(a["bias"]) + float(a["alpha"]) * window) ** float(a["beta"])


def cumulative(prod):
    def f(ins, a):
        x, axis = ins[0], int(ins[1])
        if int(a.get("reverse", 0)):
            x = x.flip(axis)
        y = torch.cumprod(x, axis) if prod else torch.cumsum(x, axis)
        if int(a.get("exclusive", 0)):
            pad = torch.ones_like(y.narrow(axis, 0, 1)) if prod else torch.zeros_like(y.narrow(axis, 0, 1))
            y = torch.cat([pad, y.narrow(axis, 0, y.shape[axis] - 1)], axis)
        return y.flip(axis) if int(a.get("reverse", 0)) else y
    return f


def weighted_loss(elementwise):
    # ND4J loss ops: inputs (predictions, weights, labels); lossReduce 0 none, 1 sum, 2 mean by weight sum,
    # 3 mean by the count of non-zero weights
    def f(ins, a):
        p, w, l = ins
        per = elementwise(p, l, a)
        w = w.expand_as(per) if w.dim() else w * torch.ones_like(per)
        out = per * w
        mode = int(a.get("lossReduce", 3))
        if mode == 0:
            return out
        if mode == 1:
            return out.sum()
        if mode == 2:
            return out.sum() / w.sum()
        return out.sum() / (w != 0).sum()
    return f


def softmax_ce_rows(logits, labels, a):
    # per example (the classes along the last axis), keeping that axis as ND4J's lossReduce 0 does
    return -(labels * torch.log_softmax(logits, -1)).sum(-1, keepdim=True)


def sigm_ce(logits, labels, a):
    # labels smoothed towards 1/2, then -(l log sigmoid(x) + (1 - l) log(1 - sigmoid(x))) = softplus(x) - l x
    s = float(a.get("labelsSmoothing", 0.0))
    smoothed = labels * (1 - s) + 0.5 * s
    return F.softplus(logits) - smoothed * logits


def gru(ins, a):
    # ND4J's gru: x [time, batch, nIn]; gates [r | u | c] side by side in Wx [nIn, 3n], Wh [n, 3n], b [3n]:
    # r, u = sigmoid(x Wx + h Wh + b) over the first 2n columns, c = tanh(x Wx_c + b_c + r*(h Wh_c)),
    # h' = u*h + (1-u)*c; the output is h' at every step
    x, h, wx, wh, b = ins
    n = h.shape[-1]
    out = []
    for t in range(x.shape[0]):
        ru = torch.sigmoid(x[t] @ wx[:, :2 * n] + h @ wh[:, :2 * n] + b[:2 * n])
        r, u = ru[:, :n], ru[:, n:]
        c = torch.tanh(x[t] @ wx[:, 2 * n:] + b[2 * n:] + r * (h @ wh[:, 2 * n:]))
        h = u * h + (1 - u) * c
        out.append(h)
    return torch.stack(out)


def lstm_layer(ins, a):
    # ND4J's lstmLayer, time-major (dataFormat 0), forward, sigmoid gates and tanh cell/output activations, with
    # biases, hI and cI, no peepholes: gates [i | f | g | o] side by side in Wx [nIn, 4n], Wr [n, 4n], b [4n];
    # c = f*c + i*g, h = o*tanh(c); the output is h at every step
    assert [int(a[k]) for k in ("dataFormat", "directionMode", "gateAct", "cellAct", "outAct")] == [0, 0, 2, 0, 0]
    x, wx, wr, b, h, c = ins
    n = h.shape[-1]
    out = []
    for t in range(x.shape[0]):
        z = x[t] @ wx + h @ wr + b
        i, f, g, o = (z[:, k * n:(k + 1) * n] for k in range(4))
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        out.append(h)
    return torch.stack(out)


def pad(ins, a):
    # ND4J pad: paddings [rank, 2] = (before, after) per dim; mode 0 constant (padValue), 1 reflect (edge not
    # repeated), 2 symmetric (edge repeated) -- numpy's mode names, applied to each axis's index list
    x, p = ins[0], ins[1].long().tolist()
    mode = int(a.get("mode", 0))
    if mode == 0:
        flat = [v for before_after in reversed(p) for v in before_after]
        return F.pad(x, flat, value=float(a.get("padValue", 0.0)))
    name = {1: "reflect", 2: "symmetric"}[mode]
    for d, (before, after) in enumerate(p):
        idx = np.pad(np.arange(x.shape[d]), (before, after), mode=name)
        x = torch.index_select(x, d, torch.tensor(idx))
    return x


def reduce_prod(ins, a):
    x = ins[0]
    for d in sorted(dims(a) or range(x.dim()), reverse=True):
        x = torch.prod(x, d, keepdim=bool(a.get("keepDims", False)))
    return x


def scatter_mul(ins, a):
    # rows of x at indices[k] are multiplied by updates[k] one after another (repeated indices compound)
    x, idx, u = ins
    rows = list(x.unbind(0))
    for k, i in enumerate(idx.long().tolist()):
        rows[i] = rows[i] * u[k]
    return torch.stack(rows)


# ND4J op name -> f(list of input tensors in spec order, attrs) -> output 0
ORACLE = {
    "log_softmax": lambda i, a: torch.log_softmax(i[0], int(a.get("dimension", -1))),
    "softmax": lambda i, a: torch.softmax(i[0], int(a.get("dimension", -1))),
    "maximum": lambda i, a: torch.maximum(i[0], i[1]),
    "minimum": lambda i, a: torch.minimum(i[0], i[1]),
    "reduce_logsumexp": lambda i, a: torch.logsumexp(i[0], dims(a) or list(range(i[0].dim()))),
    "cumsum": cumulative(False),
    "cumprod": cumulative(True),
    "mish": lambda i, a: F.mish(i[0]),
    "tanh": lambda i, a: torch.tanh(i[0]),
    "batchnorm": batchnorm,
    "clipbynorm": clipbynorm,
    "gather": lambda i, a: torch.index_select(i[0], dims(a)[0], i[1].long()),
    "upsampling2d": upsampling2d,
    "lrn": lrn,
    "gru": gru,
    "lstmLayer": lstm_layer,
    # ND4J's PreciseGELU kernel as written: the cube is taken of (0.044715 x), not 0.044715 * x^3
    "precise_gelu": lambda i, a: 0.5 * i[0] * (1 + torch.tanh((2 / np.pi) ** 0.5 * (i[0] + (0.044715 * i[0]) ** 3))),
    "tf_atan2": lambda i, a: torch.atan2(i[0], i[1]),
    "fmod": lambda i, a: torch.fmod(i[0], i[1]),
    "floormod": lambda i, a: torch.remainder(i[0], i[1]),
    "mod": lambda i, a: torch.fmod(i[0], i[1]),
    "cross": lambda i, a: torch.cross(i[0], i[1], dim=-1),
    "pad": pad,
    "reduce_prod": reduce_prod,
    "var": lambda i, a: torch.var(i[0], dims(a) or list(range(i[0].dim())), unbiased=bool(a.get("biasCorrected", True)),
                                  keepdim=bool(a.get("keepDims", False))),
    "scatter_mul": scatter_mul,
    "matrix_inverse": lambda i, a: torch.linalg.inv(i[0]),
    # derivative ops: the first derivative of softsign and selu, written out
    "softsignderivative": lambda i, a: 1 / (1 + i[0].abs()) ** 2,
    "seluderivative": lambda i, a: 1.0507009873554805 * torch.where(
        i[0] > 0, torch.ones_like(i[0]), 1.6732632423543772 * torch.exp(i[0])),
    "max_pairwise": lambda i, a: torch.maximum(i[0], i[1]),
    "amax_pairwise": lambda i, a: torch.where(i[0].abs() >= i[1].abs(), i[0], i[1]),
    "mean_sqerr_loss": weighted_loss(lambda p, l, a: (p - l) ** 2),
    "softmax_cross_entropy_loss": weighted_loss(softmax_ce_rows),
    "sigm_cross_entropy_loss": weighted_loss(sigm_ce),
    "softmax_cross_entropy_loss_with_logits":
        lambda i, a: -(i[1] * torch.log_softmax(i[0], int(a.get("classesDim", 1)))).sum(int(a.get("classesDim", 1))),
    "sparse_softmax_cross_entropy_loss_with_logits":
        lambda i, a: F.cross_entropy(i[1].reshape(-1, i[1].shape[-1]), i[0].long().reshape(-1),
                                     reduction="none").reshape(i[0].shape),
}

FLOAT = {"float64", "float32", "float16", "bfloat16"}


def values(inp):
    shape = inp["shape"]
    init = inp.get("init", {"uniform": [-1, 1]})
    n = int(np.prod(shape)) if shape else 1
    if "values" in init:
        v = np.array(init["values"], dtype=np.float64)
    elif "constant" in init:
        v = np.full(n, float(init["constant"]))
    elif "range" in init:
        start, step = init["range"]
        v = start + step * np.arange(n, dtype=np.float64)
    else:
        return None
    return v.reshape(shape)


def load(paths):
    for p in paths:
        with open(p, encoding="utf-8") as f:
            for k, doc in enumerate(yaml.safe_load_all(f), 1):
                if doc:
                    doc.setdefault("name", f"{p}#{k}")
                    yield p, doc


def fmt(v):
    return f" {v}" if isinstance(v, str) else f"{v: .6g}"  # the report writes NaN / Infinity as strings


def run(spec, report, show_jacobian):
    name, op = spec["name"], spec.get("op")
    if op not in ORACLE:
        return f"{name}: no oracle for op {op}"
    inputs = spec["inputs"]
    arrays = {}
    for k, inp in inputs.items():
        v = values(inp)
        if v is None:
            return f"{name}: input {k} has a random init; write its values out to use the oracle"
        arrays[k] = v
    no_grad = set(spec.get("no_grad", []))
    checked = spec.get("check") or [k for k, inp in inputs.items()
                                     if inp.get("dtype", "float64") in FLOAT and k not in no_grad]
    attrs = spec.get("attrs", {}) or {}

    def f(*xs):
        it = iter(xs)
        ins = [next(it) if k in checked else torch.tensor(arrays[k]) for k in inputs]
        return ORACLE[op](ins, attrs)

    xs = tuple(torch.tensor(arrays[k], requires_grad=True) for k in checked)
    y = f(*xs)
    jac = torch.autograd.functional.jacobian(f, xs)
    lines = [f"== {name} (op {op}, expect {spec.get('expect', 'pass')})",
             f"   torch forward {list(y.shape)}: " + " ".join(fmt(v) for v in y.detach().flatten().tolist())]
    for k, J in zip(checked, jac):
        J = J.reshape(y.numel(), -1)
        lines.append(f"   d out / d {k}: finite={bool(torch.isfinite(J).all())}, shape {list(J.shape)}")
        if show_jacobian:
            for r in range(J.shape[0]):
                lines.append("     " + " ".join(f"{v: .4f}" for v in J[r].tolist()))
    for check in (report or {}).get("checks", []):
        if check["name"] != name:
            continue
        lines.append(f"   gradcheck: status {check['status']}" + (f", message: {check['message']}" if check.get("message") else ""))
        for g in check.get("gradients", []):
            w = g.get("worst")
            if not w or g["input"] not in checked:
                continue
            J = jac[checked.index(g["input"])]
            t = float(J[tuple(w["output_index"]) + tuple(w["input_index"])])
            an, nu = w["analytic"], w["numerical"]
            agrees = ("numerical" if abs(t - nu) <= 1e-6 * max(1, abs(t)) else
                      "analytic" if abs(t - an) <= 1e-6 * max(1, abs(t)) else "neither")
            lines.append(f"   worst d out{w['output_index']} / d {g['input']}{w['input_index']}: ND4J analytic {fmt(an)},"
                         f" numerical {fmt(nu)}, torch {fmt(t)} -> torch agrees with: {agrees}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--report", help="gradcheck --format json output for the same specs")
    ap.add_argument("--only", help="only the spec with this name")
    ap.add_argument("--jacobian", action="store_true", help="print PyTorch's full Jacobians")
    a = ap.parse_args()
    report = None
    if a.report:
        text = open(a.report, encoding="utf-8").read()
        report = json.loads(text[text.index("{\n"):])  # tolerate native chatter before the JSON
    for _, spec in load(a.specs):
        if a.only and spec["name"] != a.only:
            continue
        print(run(spec, report, a.jacobian))


if __name__ == "__main__":
    sys.exit(main())
