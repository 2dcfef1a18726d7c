"""The photo readers' networks, run by ONNX Runtime on the CPU.

The shipped ONNX files (``vision/models``) were run by OpenCV's DNN module before
28 November; ONNX Runtime runs the same files, the same weights, in about half the
time on one core (the index detector 19 -> 8.5 ms at 320 x 320, the classifier 63 ->
38 ms for 8 crops; README "Libraries we build on").  A network uses as many threads
as OpenCV is told to (``cv2.setNumThreads``: the benchmarks and the camera's process
give it one), so one setting rules all of the vision's work.

    >>> net = load(MODELS / "index_detector.onnx")           # doctest: +SKIP
    >>> heat = net.run(blob)                                 # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..errors import VisionError


class Net:
    """One ONNX network: ``run(x)`` gives its (first) output for the input ``x``."""

    def __init__(self, path: Path) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, cv2.getNumThreads())
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3  # its warnings are for developers, not the table's log
        # idle threads sleep rather than spin between runs: the service's loop, the link and
        # the dashboard share the machine with them
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # ONNX Runtime's own error types: a damaged or foreign file
            raise VisionError(f"{path} is no network this reader can run ({exc})") from None
        self.path = path
        self._input = self.session.get_inputs()[0].name

    def run(self, x: np.ndarray) -> np.ndarray:
        out: np.ndarray = self.session.run(None, {self._input: np.ascontiguousarray(x, dtype=np.float32)})[0]
        return out


def load(path: Path) -> Net:
    return Net(path)
