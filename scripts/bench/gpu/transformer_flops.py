#!/usr/bin/env python3
"""Training FLOPs per target token of an encoder-decoder Transformer, and the model FLOP
utilisation (MFU) a target-token rate gives on a card of a stated peak.

Counted (multiply-adds as 2 FLOPs, training = forward + backward = 3x the forward's matrix work,
as in Kaplan et al. 2020 and PaLM's MFU, Chowdhery et al. 2022, appendix B):
  per source token, each encoder layer: Q, K, V, O projections 4 d^2, FFN 2 d f;
                    each decoder layer: the cross-attention's K and V projections of the memory 2 d^2;
  per target token, each decoder layer: self-attention Q, K, V, O 4 d^2, cross-attention Q and O
                    2 d^2, FFN 2 d f; the output projection d V_tgt;
  attention scores and their weighted sums: 2 x 2 L d per token and layer for a length-L context
                    (encoder self: S, decoder self: T, cross: S), counted in full (no causal saving).
Embedding look-ups, layer norms, softmax and the optimizer are not counted (elementwise work).
With S source tokens per T target tokens: FLOPs/target token = 3 x 2 x (matrix parameters weighted
by S/T for the source side + the attention terms).
"""
import argparse
import json


def flops_per_target_token(d, ffn, enc_layers, dec_layers, tgt_vocab, src_len, tgt_len):
    ratio = src_len / tgt_len
    enc = enc_layers * (4 * d * d + 2 * d * ffn + 2 * 2 * src_len * d)  # per source token
    cross_kv = dec_layers * 2 * d * d  # per source token
    dec = dec_layers * (4 * d * d + 2 * d * d + 2 * d * ffn + 2 * 2 * tgt_len * d + 2 * 2 * src_len * d)
    out = d * tgt_vocab
    forward_macs = ratio * (enc + cross_kv) + dec + out
    return 3 * 2 * forward_macs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--d", type=int, default=512)
    ap.add_argument("--ffn", type=int, default=2048)
    ap.add_argument("--enc-layers", type=int, default=6)
    ap.add_argument("--dec-layers", type=int, default=6)
    ap.add_argument("--tgt-vocab", type=int, required=True)
    ap.add_argument("--src-len", type=float, required=True, help="source tokens per sentence (mean)")
    ap.add_argument("--tgt-len", type=float, required=True, help="target tokens per sentence (mean)")
    ap.add_argument("--tokens-per-s", type=float, nargs="*", default=[], help="target tokens per second")
    ap.add_argument("--peak-tflops", type=float, required=True, help="the card's dense bf16 peak, TFLOP/s")
    a = ap.parse_args()
    f = flops_per_target_token(a.d, a.ffn, a.enc_layers, a.dec_layers, a.tgt_vocab, a.src_len, a.tgt_len)
    rows = [{"tgt_tokens_per_s": t, "tflops": t * f / 1e12, "mfu": t * f / 1e12 / a.peak_tflops} for t in a.tokens_per_s]
    print(json.dumps({"flops_per_tgt_token": f, "peak_tflops": a.peak_tflops, "rates": rows}))


if __name__ == "__main__":
    main()
