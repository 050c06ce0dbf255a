#!/usr/bin/env python3
"""The reference side of the GPU benchmark (issue #6): the same Transformer as synmt's
transformer_base (6+6 layers, d 512, 8 heads, FFN 2048, sinusoidal positions, tied target
embeddings, post-norm, dropout 0.1, label smoothing 0.1, Adam) trained in a plain PyTorch loop on
fixed-shape batches under bf16 autocast, reporting target tokens per second as JSON.

The batches have the shapes of synmt's run on the synthetic corpus that bench_gpu_transformer.sh
writes (every sentence the same length), so both sides do the same arithmetic per step.
torch.nn.Transformer's encoder and decoder stacks end with a LayerNorm that synmt's post-norm
stacks do not have: two extra normalisations per step, a negligible difference.
"""
import argparse
import json
import math
import time

import torch
import torch.nn.functional as F
from torch import nn


class Model(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, d=512, heads=8, ffn=2048, layers=6, dropout=0.1):
        super().__init__()
        self.d = d
        self.src_embed = nn.Embedding(src_vocab, d, padding_idx=0)
        self.tgt_embed = nn.Embedding(tgt_vocab, d, padding_idx=0)
        self.core = nn.Transformer(d, heads, layers, layers, ffn, dropout, batch_first=True)
        self.dropout = nn.Dropout(dropout)
        pos = torch.arange(1024).unsqueeze(1)
        div = torch.pow(10000.0, torch.arange(0, d, 2) / d)
        pe = torch.zeros(1024, d)
        pe[:, 0::2] = torch.sin(pos / div)
        pe[:, 1::2] = torch.cos(pos / div)
        self.register_buffer("pe", pe, persistent=False)

    def embed(self, table, tokens):
        return self.dropout(table(tokens) * math.sqrt(self.d) + self.pe[: tokens.size(1)])

    def forward(self, src, tgt_in):
        causal = nn.Transformer.generate_square_subsequent_mask(tgt_in.size(1), device=src.device)
        h = self.core(self.embed(self.src_embed, src), self.embed(self.tgt_embed, tgt_in), tgt_mask=causal,
                      src_key_padding_mask=src.eq(0), tgt_key_padding_mask=tgt_in.eq(0),
                      memory_key_padding_mask=src.eq(0))
        return F.log_softmax(h @ self.tgt_embed.weight.t(), dim=-1)  # tied output projection


def train_step(model, opt, src, tgt_in, tgt_out, amp, device):
    opt.zero_grad(set_to_none=True)
    with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
        logp = model(src, tgt_in)
        loss = F.nll_loss(logp.float().reshape(-1, logp.size(-1)), tgt_out.reshape(-1), reduction="sum",
                          ignore_index=0)
        smooth = -logp.float().mean(-1).sum()
        loss = 0.9 * loss + 0.1 * smooth
    (loss / tgt_out.numel()).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()


def profile(args, model, opt, src, tgt_in, tgt_out, amp, device):
    from torch.profiler import ProfilerActivity, profile as torch_profile
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    with torch_profile(activities=activities) as prof:
        for _ in range(5):
            train_step(model, opt, src, tgt_in, tgt_out, amp, device)
        if device.type == "cuda":
            torch.cuda.synchronize()
    key = "cuda_time_total" if device.type == "cuda" else "cpu_time_total"
    with open(args.profile_out, "w") as f:
        f.write(prof.key_averages().table(sort_by=key, row_limit=30))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--src-vocab", type=int, required=True)
    ap.add_argument("--tgt-vocab", type=int, required=True)
    ap.add_argument("--batch-size", type=int, required=True, help="sentences per batch")
    ap.add_argument("--src-len", type=int, required=True, help="source tokens per sentence (with </s>)")
    ap.add_argument("--tgt-len", type=int, required=True, help="target tokens per sentence (with </s>)")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20, help="steps not timed")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--precision", default="bf16", choices=["bf16", "fp32"])
    ap.add_argument("--small", action="store_true", help="a tiny model (smoke test on a CPU)")
    ap.add_argument("--size", choices=["base", "demo", "tiny"], default="base",
                    help="synmt's preset: transformer_base, transformer_demo (3+3 layers, d 256, 4 heads, FFN 1024) "
                         "or transformer_tiny (= --small)")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: PyTorch's default)")
    ap.add_argument("--profile-out", default="",
                    help="after the timed steps, profile 5 more with torch.profiler and write the table of "
                         "operators by device time here (where the reference's time goes)")
    args = ap.parse_args()
    torch.manual_seed(1)
    device = torch.device(args.device)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    sizes = {"base": {}, "demo": dict(d=256, heads=4, ffn=1024, layers=3), "tiny": dict(d=32, heads=4, ffn=64, layers=2)}
    dims = sizes["tiny" if args.small else args.size]
    model = Model(args.src_vocab, args.tgt_vocab, **dims).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)
    B, S, T = args.batch_size, args.src_len, args.tgt_len
    src = torch.randint(4, args.src_vocab, (B, S), device=device)
    tgt = torch.randint(4, args.tgt_vocab, (B, T + 1), device=device)
    tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
    amp = args.precision == "bf16"
    timed_tokens, start = 0, None
    for step in range(args.warmup + args.steps):
        if step == args.warmup:
            timed_tokens = 0
            if device.type == "cuda":
                torch.cuda.synchronize()
            start = time.perf_counter()
        train_step(model, opt, src, tgt_in, tgt_out, amp, device)
        if step >= args.warmup:
            timed_tokens += tgt_out.numel()
    if device.type == "cuda":
        torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    if args.profile_out:
        profile(args, model, opt, src, tgt_in, tgt_out, amp, device)
    print(json.dumps({"tgt_tokens_per_s": timed_tokens / seconds, "steps": args.steps, "seconds": seconds,
                      "batch": [B, S, T], "precision": args.precision, "torch": torch.__version__,
                      "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"}))


if __name__ == "__main__":
    main()
