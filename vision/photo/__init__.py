"""Reading cards in still photographs (issue 9).

A two-stage recogniser: a small detector finds every card's index corner (the rank
and suit printed in a corner), a small classifier reads each one, and readings of
the same card are merged.  Both networks are trained by ``vision/photo/train.py``
(PyTorch, CPU, minutes) and shipped as ONNX under ``vision/models/``; at run time
they run through OpenCV's DNN module, so neither torch nor a download is needed.

    >>> import cv2
    >>> from vision.photo.synth import render_photo
    >>> cv2.imwrite("photo.jpg", render_photo(seed=5).image)     # a rendered photo of TC and 5H
    True
    >>> from vision.photo.recognise import Recogniser
    >>> readings = Recogniser.load().read(cv2.imread("photo.jpg"))

May import the rest of ``vision`` (errors, faces); never ``table_controller`` or the
dashboard (the photo reader runs alone, tests/app/commands/test_camera_read.py).
"""
