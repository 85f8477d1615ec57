"""注意力：ref-7-ops/attention.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def qkv(lq=3, lk=3):
    return leaf(data(1, 2, lq, 4)), leaf(coef(1, 2, lk, 4)), leaf(wave(1, 2, lk, 4))


@row
def sdpa():
    q, k, v = qkv()
    return backward(F.scaled_dot_product_attention(q, k, v), grad_q=q, grad_k=k, grad_v=v)


@row
def sdpa_causal():
    q, k, v = qkv()
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return backward(y, grad_q=q, grad_k=k, grad_v=v)


@row
def sdpa_causal_kv():
    # 2 queries, 4 keys (a KV cache): PyTorch's causal mask is aligned at the top left.
    q, k, v = qkv(2, 4)
    return out(F.scaled_dot_product_attention(q, k, v, is_causal=True))


@row
def sdpa_causal_kv_mask():
    q, k, v = qkv(2, 4)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return backward(y, grad_q=q, grad_k=k, grad_v=v)


# True = may attend; the last key is padding.
KEEP = torch.tensor([[True, True, False], [True, True, False], [True, True, False]])


@row
def sdpa_bool_mask_naive():
    q, k, v = qkv()
    return out(F.scaled_dot_product_attention(q, k, v, attn_mask=KEEP))


@row
def sdpa_bool_mask():
    q, k, v = qkv()
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=KEEP)
    return backward(y, grad_q=q, grad_k=k, grad_v=v)


@row
def sdpa_float_mask():
    q, k, v = qkv()
    # An additive bias, ALiBi-like: -0.5·|i - j|.
    bias = torch.tensor([[-0.5 * abs(i - j) for j in range(3)] for i in range(3)])
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    return backward(y, grad_q=q, grad_k=k, grad_v=v)


@row
def sdpa_scale():
    q, k, v = qkv()
    y = F.scaled_dot_product_attention(q, k, v, scale=0.5)
    return backward(y, grad_q=q, grad_k=k, grad_v=v)


@row
def sdpa_masked_row():
    q, k, v = qkv()
    keep = torch.tensor([[True, False, False], [False, False, False], [True, True, True]])
    return out(F.scaled_dot_product_attention(q, k, v, attn_mask=keep))
