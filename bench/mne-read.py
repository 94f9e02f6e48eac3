#!/usr/bin/env python3
"""Times MNE's preload read of an EDF+ file, annotations included (the anchors' reference step).

Run with Debian's python3-mne, which stays outside the project's dependencies:
    apt-get install -y python3-mne
    /usr/bin/python3 bench/mne-read.py bench/data/mitbih100_24h.edf [--repeat 3]
Prints one JSON line: import time, each read's seconds, the median, the annotation count,
samples, and the process's peak RSS (ru_maxrss) in MiB.
"""
import argparse
import json
import resource
import statistics
import sys
import time

t0 = time.perf_counter()
import mne  # noqa: E402

import_sec = time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    mne.set_log_level("ERROR")
    times = []
    n_ann = n_samples = 0
    for _ in range(args.repeat):
        t = time.perf_counter()
        raw = mne.io.read_raw_edf(args.path, preload=True)
        n_ann = int(len(raw.annotations))
        n_samples = int(raw.n_times)
        times.append(time.perf_counter() - t)
        del raw
    print(json.dumps({
        "mne": mne.__version__,
        "python": sys.version.split()[0],
        "importSec": round(import_sec, 3),
        "readSec": [round(x, 3) for x in times],
        "medianSec": round(statistics.median(times), 3),
        "annotations": n_ann,
        "samplesPerSignal": n_samples,
        "peakRssMiB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }))


if __name__ == "__main__":
    main()
