"""What the recorded program left in torch that the recording's end reads: the device it used,
and what the CUDA caching allocator itself counted. Asked only where the program used CUDA:
asking would initialize it."""


def device(torch):
    try:
        if torch.cuda.is_initialized():
            return f"cuda:{torch.cuda.current_device()}"
    except Exception:  # noqa: BLE001 - a broken CUDA setup is the program's
        pass
    return "cpu"


def cuda_allocator(torch):
    """torch.cuda.max_memory_allocated and max_memory_reserved, for the summary beside the
    recorded peak."""
    try:
        if torch.cuda.is_initialized():
            return {"max_memory_allocated": torch.cuda.max_memory_allocated(),
                    "max_memory_reserved": torch.cuda.max_memory_reserved()}
    except Exception:  # noqa: BLE001
        pass
    return {}
