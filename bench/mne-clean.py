#!/usr/bin/env python3
"""The reference preprocessing's first two steps on this machine, timed step by step: MNE's
preload read of an EDF+ file (annotations included), then the cleaning NeuroKit2 0.2.9's
ecg_clean(method="neurokit") performs on the first ECG signal, done here with the same scipy
calls it makes: a 5th-order 0.5 Hz Butterworth high-pass as second-order sections run forward
and backward (sosfiltfilt), then the powerline step, a moving average of int(fs/50) samples run
forward and backward (filtfilt). NeuroKit2 itself is not installable here (no PyPI access, no
Debian package), so its ecg_peaks step is quoted from ../shared/docs/anchors.md instead.

    /usr/bin/python3 bench/mne-clean.py bench/data/mitbih100_24h.edf
Prints one JSON line: seconds per step and the peak RSS (ru_maxrss) in MiB.
"""
import json
import resource
import sys
import time

import mne
import numpy as np
from scipy import signal


def main() -> None:
    mne.set_log_level("ERROR")
    t0 = time.perf_counter()
    raw = mne.io.read_raw_edf(sys.argv[1], preload=True)
    x = raw.get_data(picks=[0])[0] * 1000.0  # V -> mV, lead 0
    fs = raw.info["sfreq"]
    t1 = time.perf_counter()
    sos = signal.butter(5, 0.5, btype="highpass", output="sos", fs=fs)
    y = signal.sosfiltfilt(sos, x)
    width = int(fs / 50)
    y = signal.filtfilt(np.ones(width) / width, [1.0], y)
    t2 = time.perf_counter()
    print(json.dumps({
        "readSec": round(t1 - t0, 3),
        "cleanSec": round(t2 - t1, 3),
        "totalSec": round(t2 - t0, 3),
        "samples": int(x.size),
        "checksum": round(float(np.abs(y).sum()), 3),
        "peakRssMiB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }))


if __name__ == "__main__":
    main()
