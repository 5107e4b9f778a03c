# `x is None` for an unknown x is unknown: an import that failed must not look like None.
try:
    import scipy_not_here as sp
except ImportError:
    sp = None
import torchaudio_not_here as ta

backend = ta.get_audio_backend()
print(backend is None)
