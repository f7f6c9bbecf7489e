"""nanogpt_format.py: nanoGPT's checkpoint layout as our checkpoints store it, shared by
convert_nanogpt.py (nanoGPT → ours) and export_nanogpt.py (ours → nanoGPT).

Our checkpoint (src/gpt/checkpoint.rs) holds nanoGPT's state_dict tensors in its order,
f32, PyTorch layouts, without lm_head.weight (tied to transformer.wte.weight) and without
the attn.bias mask buffers; its metadata strings are SIZES, bias and vocab.
"""
SIZES = ("vocab_size", "block_size", "n_layer", "n_head", "n_embd")
BLOCK_PARTS = ("ln_1", "attn.c_attn", "attn.c_proj", "ln_2", "mlp.c_fc", "mlp.c_proj")


def expected_names(n_layer, bias):
    """Our tensor names, in nanoGPT's state_dict (and named_parameters) order."""
    names = ["transformer.wte.weight", "transformer.wpe.weight"]
    for i in range(n_layer):
        for part in BLOCK_PARTS:
            names.append(f"transformer.h.{i}.{part}.weight")
            if bias:
                names.append(f"transformer.h.{i}.{part}.bias")
    names.append("transformer.ln_f.weight")
    if bias:
        names.append("transformer.ln_f.bias")
    return names


def expected_shapes(cfg):
    """{name: shape} of every tensor of a model with cfg's sizes and bias."""
    C, V, T = cfg["n_embd"], cfg["vocab_size"], cfg["block_size"]
    shapes = {}
    for n in expected_names(cfg["n_layer"], cfg["bias"]):
        w = n.endswith(".weight")
        if n == "transformer.wte.weight":
            shapes[n] = (V, C)
        elif n == "transformer.wpe.weight":
            shapes[n] = (T, C)
        elif ".c_attn." in n:
            shapes[n] = (3 * C, C) if w else (3 * C,)
        elif ".mlp.c_fc." in n:
            shapes[n] = (4 * C, C) if w else (4 * C,)
        elif ".mlp.c_proj." in n:
            shapes[n] = (C, 4 * C) if w else (C,)
        elif ".attn.c_proj." in n:
            shapes[n] = (C, C) if w else (C,)
        else:
            shapes[n] = (C,)  # LayerNorm weight / bias
    return shapes


def decays(shape):
    """nanoGPT's configure_optimizers: weight decay on tensors with dim >= 2 only."""
    return len(shape) >= 2
