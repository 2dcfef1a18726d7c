"""The camera in the service (issue 16 item 3): recognition in its own process.

Reading a 1280x720 frame costs tens of milliseconds of CPU; in the service's event loop
it would stall the seat controller's link, the clocks and the dashboard.  So the frames
are read and recognised in a child process (``multiprocessing``, spawn: a fresh
interpreter, no threads or sockets inherited from the service), which sends the pads'
readings over a pipe.  The parent turns them into the same sensor events as the readers
(``CameraPad``, and ``LinkStatus`` with ``device == "camera"``) on one async stream:

    worker = CameraWorker.for_camera("0", "camera.json", fps=30)
    await worker.start()
    live = LiveTable(log, deck, sensors=merged(client, worker))   # one stream of events
    ...
    await worker.close()

- The child runs at a lower priority (``nice`` 10): on a busy machine the service's own
  work (the link, sensing, the log, the dashboard) runs first and frames wait.
- Only changes are sent: a pad's reading when it differs from the last one sent, and
  every pad again each ``refresh_s`` (sensing counts camera views from the start of a
  step, so an unchanged pad is news again after a while).  Each event is stamped with
  the parent's clock when it arrives, the clock the seat controller's events carry.
- A camera that stops (unplugged, a folder of frames gone, a recording ended), a child
  that dies or hangs (no frame for ``stale_s``, or no word ``start_s`` after it started): ``LinkStatus(online=False,
  device="camera")``; sensing raises ``camera_offline`` and the table plays on with the
  readers.  The child retries its source every ``retry_s``; a dead child is started
  again (after ``restart_s``, growing to 10 s).  The first frames again:
  ``LinkStatus(online=True)`` and the alert ends by itself.

Sources (``open_frames``): a device index, a video file or a stream URL
(``vision.source.CameraSource``); a folder of images, played in name order at ``fps``
and read again whenever it wraps (emptied or removed: the camera is "unplugged");
``synthetic:SEED``: rendered scenes of ``vision.scene`` (tests and benchmarks).

The TL's evidence (issue 18 item 3): ``await worker.crop("seat1")`` is the pad cut out of
the child's last frame as a JPEG (``vision.crop``).  The child keeps its last frame and
answers between frames (it waits for its next frame on the request pipe, so an answer
takes at most one frame's recognition); the parent awaits the answer without blocking
the loop and gives up after ``timeout``.  A camera offline or a child gone is
:class:`CameraUnavailable` at once, saying why; a pad the layout does not have is
:class:`CalibrationError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from table_controller.sensor_events import CAMERA_DEVICE, CameraPad, CardSighting, LinkStatus, SensorEvent

from .errors import CalibrationError, CameraUnavailable, VisionError

__all__ = ["CameraWorker", "FolderFrames", "Merged", "PadCrop", "SyntheticFrames", "merged", "open_frames"]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")
SYNTHETIC = "synthetic:"


# --- frame sources (in the child) ---------------------------------------------------------


class FolderFrames:
    """The images of a folder in name order, over and over; the folder is listed again
    at every wrap, so frames added or removed count, and a folder emptied or gone is a
    camera unplugged (:class:`CameraUnavailable`) until images are back."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self._names: list[str] = []
        self._i = 0
        self._cache: dict[str, tuple[float, np.ndarray]] = {}
        self._list()

    def _list(self) -> None:
        try:
            names = sorted(n for n in os.listdir(self.folder) if n.lower().endswith(IMAGE_SUFFIXES))
        except OSError as exc:
            raise CameraUnavailable(
                "the frames' folder {folder}: {error}", folder=str(self.folder), error=exc
            ) from None
        if not names:
            raise CameraUnavailable("no images in the frames' folder {folder}", folder=str(self.folder))
        self._names, self._i = names, 0

    def read(self) -> np.ndarray:
        import cv2

        for _ in range(2):  # a frame gone since the folder was listed: list it again, once
            if self._i >= len(self._names):
                self._list()  # an emptied or missing folder: CameraUnavailable
            name = self._names[self._i]
            self._i += 1
            path = os.path.join(self.folder, name)
            try:
                mtime = os.stat(path).st_mtime
                break
            except OSError:
                self._i = len(self._names)
        else:
            raise CameraUnavailable("the frame {path} is gone", path=str(path))
        hit = self._cache.get(name)
        if hit is not None and hit[0] == mtime:
            return hit[1]
        frame = cv2.imread(path, cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraUnavailable("cannot read the frame {path}", path=str(path))
        self._cache[name] = (mtime, frame)
        return frame

    def close(self) -> None:
        self._cache.clear()


class SyntheticFrames:
    """Rendered frames of a table (``vision.scene``): ``count`` scenes drawn once, then
    played over and over.  ``synthetic:SEED`` as a camera source."""

    def __init__(self, seed: int, count: int = 4) -> None:
        from .scene import Placement, Scene, random_scene, render

        pose = random_scene(seed, 0.3, fill=0.0)
        self.frames = []
        for i in range(count):
            cards = tuple(Placement("seat1", code, 30 + 20 * k, 16) for k, code in enumerate(("AS", "KH")[: i % 3]))
            self.frames.append(render(Scene(cards, pose.corners, 0.3, seed * 100 + i, "blue"), supersample=1))
        self._i = 0

    def read(self) -> np.ndarray:
        frame = self.frames[self._i % len(self.frames)]
        self._i += 1
        return frame

    def close(self) -> None:
        pass


def open_frames(source: str, width: int | None = None, height: int | None = None, fps: float | None = None) -> Any:
    """A frame source with ``read()`` and ``close()`` for a camera source text."""
    if source.startswith(SYNTHETIC):
        try:
            seed = int(source[len(SYNTHETIC) :] or 0)
        except ValueError:
            raise VisionError(
                "{source}: a synthetic camera is synthetic:SEED (a whole number)", source=repr(source)
            ) from None
        return SyntheticFrames(seed)
    if os.path.isdir(source):
        return FolderFrames(source)
    from .source import CameraSource

    return CameraSource(source, width, height, fps, realtime=True, loop=True)


# --- the child process ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WorkerOptions:
    """What the child needs (pickled to it)."""

    source: str
    calibration: str | None  # None: calibrate from the first frame (rendered and test frames)
    fps: float = 30.0
    width: int | None = None
    height: int | None = None
    retry_s: float = 1.0
    refresh_s: float = 1.0
    beat_s: float = 0.2
    nice: int = 10  # the child's niceness: the link, sensing and the dashboard come first
    scene: bool = True  # camera read's reader names the face-up cards the templates cannot


def _reading(e: CameraPad) -> tuple:
    return (e.pad, e.face_down, tuple((s.card, round(s.confidence, 2)) for s in e.face_up))


class _Kept:
    """The child's last frame, for the TL's pictures of a pad (``("crop", id, pad)``)."""

    def __init__(self) -> None:
        self.frame: np.ndarray | None = None
        self.at = 0.0
        self.calibration: Any = None
        self.why = "no frame yet"

    def lost(self, why: str) -> None:
        self.frame, self.why = None, why  # a picture from before the camera went is no evidence

    def reply(self, msg: tuple) -> tuple:
        from .crop import pad_jpeg

        _, rid, pad = msg
        if self.frame is None or self.calibration is None:
            return ("crop", rid, "unavailable", self.why)
        try:
            data = pad_jpeg(self.frame, self.calibration, str(pad))
        except CalibrationError as exc:
            return ("crop", rid, "no_pad", str(exc))
        except VisionError as exc:
            return ("crop", rid, "unavailable", str(exc))
        return ("crop", rid, "ok", data, time.monotonic() - self.at)

    def serve(self, requests: Any, conn: Any, until: float) -> None:
        """Answer the parent's requests until ``until`` (monotonic): the child's wait
        between frames is spent here."""
        while requests.poll(max(0.0, until - time.monotonic())):
            conn.send(self.reply(requests.recv()))


def _child(opts: WorkerOptions, conn: Any, requests: Any = None) -> None:  # pragma: no cover - runs in the child
    """Read, recognise, send changes, answer requests for a pad's picture; runs until
    the parent goes (a send fails) or terminates it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the service's to handle
    with contextlib.suppress(OSError):
        os.nice(opts.nice)  # a frame late costs nothing; a card late on the TL's screen does
    try:
        _child_loop(opts, conn, requests)
    except (BrokenPipeError, EOFError, OSError):
        pass


def _scene_reader() -> Any:  # pragma: no cover - runs in the child
    """``camera read``'s reader for the face-up cards the templates cannot name, or None
    (said on stderr, the service's log) when its networks cannot be loaded: the
    templates alone still read our own decks."""
    import sys

    from .photo.scene_reader import SceneReader

    try:
        return SceneReader.load(backs=False)
    except (VisionError, OSError) as exc:
        print(f"camera: the templates alone name cards; camera read's reader is not loaded: {exc}", file=sys.stderr)
        return None


def _child_loop(opts: WorkerOptions, conn: Any, requests: Any) -> None:  # pragma: no cover - runs in the child
    from .calibration import Calibration, calibrate
    from .camera import TableCamera

    kept = _Kept()

    def wait(seconds: float) -> None:
        if requests is None:
            time.sleep(seconds)
        else:
            kept.serve(requests, conn, time.monotonic() + seconds)

    scene = _scene_reader() if opts.scene else None
    camera: TableCamera | None = None
    if opts.calibration is not None:
        try:
            camera = TableCamera(None, Calibration.load(opts.calibration), scene=scene)  # type: ignore[arg-type]
        except (VisionError, OSError, ValueError) as exc:
            conn.send(("fatal", f"the camera's calibration {opts.calibration}: {exc}"))
            return
    parent = os.getppid()
    source = None
    sent: dict[str, tuple] = {}
    period = 1.0 / opts.fps
    due = time.monotonic()
    last_full = last_beat = 0.0
    frames = 0
    online: bool | None = None
    while True:
        if os.getppid() != parent:  # the service is gone (killed: nobody reads the pipe)
            return
        if source is None:
            try:
                source = open_frames(opts.source, opts.width, opts.height, opts.fps)
            except (VisionError, OSError) as exc:
                if online is not False:
                    conn.send(("offline", str(exc)))
                    online = False
                kept.lost(str(exc))
                wait(opts.retry_s)
                continue
        try:
            frame = source.read()
            if frame is None:
                raise CameraUnavailable("the recording {source} ended", source=str(opts.source))
            if camera is None:
                camera = TableCamera(None, calibrate(frame), scene=scene)  # type: ignore[arg-type]
            events = camera.read_frame(frame)
        except (VisionError, OSError, ValueError) as exc:
            with contextlib.suppress(Exception):
                source.close()
            source = None
            if online is not False:
                conn.send(("offline", str(exc)))
                online = False
            kept.lost(str(exc))
            wait(opts.retry_s)
            continue
        kept.frame, kept.at, kept.calibration = frame, time.monotonic(), camera.calibration
        frames += 1
        now = time.monotonic()
        if online is not True:
            conn.send(("online", f"{opts.source}: frames arrive"))
            online = True
        full = now - last_full >= opts.refresh_s
        changed = [_reading(e) for e in events if full or sent.get(e.pad) != _reading(e)]
        if changed:
            conn.send(("pads", changed, frames))
            sent.update({r[0]: r for r in changed})
            last_beat = now
            if full:
                last_full = now
        elif now - last_beat >= opts.beat_s:
            conn.send(("beat", frames))
            last_beat = now
        due += period
        left = due - time.monotonic()
        if left > 0:
            wait(left)
        else:
            due = time.monotonic()  # behind: drop the lost frames' turns, not catch up
            wait(0.0)  # a request waits one frame at most, also on a machine that is behind


# --- the parent ---------------------------------------------------------------------------------

MAX_PENDING = 4  # pictures asked for and not yet answered; more is a camera that does not answer


@dataclass(frozen=True, slots=True)
class PadCrop:
    """A pad's picture from the camera's last frame: JPEG bytes and the frame's age."""

    pad: str
    jpeg: bytes
    age_s: float


class CameraWorker:
    """The camera's process, watched: its readings as sensor events (``events()``)."""

    def __init__(
        self,
        source: str,
        calibration: str | None,
        fps: float = 30.0,
        *,
        width: int | None = None,
        height: int | None = None,
        stale_s: float = 2.0,
        start_s: float = 60.0,
        retry_s: float = 1.0,
        restart_s: float = 1.0,
        refresh_s: float = 1.0,
        nice: int = 10,
        scene: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not 0 < fps <= 240:
            raise VisionError("fps must be from 0 to 240, got {fps}", fps=fps)
        self.options = WorkerOptions(
            str(source), calibration, fps, width, height, retry_s, refresh_s, nice=nice, scene=scene
        )
        self.stale_s = stale_s
        self.start_s = start_s  # a (re)started child's first word may take this long (OpenCV, networks)
        self.restart_s = restart_s
        self.clock = clock
        self.online = False
        self.detail = "starting"
        self.frames = 0  # frames the child has read (the last it told)
        self.restarts = 0
        self.process: Any = None
        self._conn: Any = None
        self._requests: Any = None  # the parent's end of the request pipe (pictures of a pad)
        self._pending: dict[int, asyncio.Future[tuple]] = {}
        self._rid = 0
        self._queue: asyncio.Queue[SensorEvent] = asyncio.Queue()
        self._said: bool | None = None  # the last LinkStatus sent
        self._heard = 0.0
        self._started = False  # the running child has said something
        self._task: asyncio.Task | None = None
        self._dead = asyncio.Event()

    @classmethod
    def for_camera(cls, source: str, calibration: str | None, fps: float = 30.0, **kw: Any) -> CameraWorker:
        """A worker for ``[camera] source`` (device, file, URL, folder, ``synthetic:SEED``)."""
        return cls(source, calibration, fps, **kw)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    async def start(self) -> CameraWorker:
        self._spawn()
        self._task = asyncio.create_task(self._watch(), name="camera-watch")
        return self

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._drop_conn()  # in the loop: a picture still awaited is answered "ended"
        await asyncio.get_running_loop().run_in_executor(None, self._stop_child)

    async def __aenter__(self) -> CameraWorker:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def events(self) -> AsyncIterator[SensorEvent]:
        while True:
            yield await self._queue.get()

    async def next_event(self, timeout: float | None = None) -> SensorEvent:
        async with asyncio.timeout(timeout):
            return await self._queue.get()

    async def crop(self, pad: str, timeout: float = 3.0) -> PadCrop:
        """``pad`` cut out of the camera's last frame (``vision.crop``), as a JPEG.  Never
        blocks the loop: the child answers between frames and this awaits it.  Raises
        :class:`CameraUnavailable` (offline, the process gone, no answer in ``timeout``,
        too many asked at once) and :class:`CalibrationError` for a pad the layout does
        not have; each says why."""
        if not self.online or self._requests is None:
            raise CameraUnavailable("the camera is offline ({detail}): no picture", detail=self.detail)
        if len(self._pending) >= MAX_PENDING:
            raise CameraUnavailable("the camera has {n} pictures to answer already; ask again", n=MAX_PENDING)
        self._rid += 1
        rid = self._rid
        answer: asyncio.Future[tuple] = asyncio.get_running_loop().create_future()
        self._pending[rid] = answer
        try:
            try:
                self._requests.send(("crop", rid, str(pad)))  # a few bytes: the pipe has room
            except (OSError, ValueError) as exc:
                raise CameraUnavailable("the camera process cannot be asked ({error})", error=exc) from None
            try:
                async with asyncio.timeout(timeout):
                    reply = await answer
            except TimeoutError:
                seconds = format(timeout, "g")
                raise CameraUnavailable("the camera gave no picture in {seconds} s", seconds=seconds) from None
        finally:
            self._pending.pop(rid, None)
        status = reply[2]
        if status == "ok":
            return PadCrop(str(pad), reply[3], float(reply[4]))
        if status == "no_pad":
            raise CalibrationError(reply[3])
        raise CameraUnavailable("the camera has no picture: {reason}", reason=reply[3])

    # --- inside ----------------------------------------------------------------------------
    def _spawn(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        mine, theirs = ctx.Pipe(duplex=False)
        asks, asked = ctx.Pipe(duplex=False)  # (the child's reading end, ours)
        self.process = ctx.Process(target=_child, args=(self.options, theirs, asks), name="chicago-camera", daemon=True)
        self.process.start()
        theirs.close()  # the child's end: EOF here when the child is gone
        asks.close()
        self._conn, self._requests = mine, asked
        self._heard = self.clock()
        self._started = False
        self._dead.clear()
        asyncio.get_running_loop().add_reader(mine.fileno(), self._readable)

    def _readable(self) -> None:
        conn = self._conn
        try:
            while conn is not None and conn.poll():
                self._handle(conn.recv())
        except (EOFError, OSError):
            self._drop_conn()
            self._dead.set()

    def _drop_conn(self) -> None:
        with contextlib.suppress(RuntimeError):  # the loop's thread only (not _stop_child's executor)
            asyncio.get_running_loop()
            for answer in self._pending.values():
                if not answer.done():
                    answer.set_result(("crop", 0, "unavailable", "the camera process ended"))
        if self._requests is not None:
            with contextlib.suppress(Exception):
                self._requests.close()
            self._requests = None
        if self._conn is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self._conn.fileno())
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    def _handle(self, msg: tuple) -> None:
        kind = msg[0]
        if kind == "crop":  # an answer, not a frame: says nothing of the camera's health
            answer = self._pending.get(msg[1])
            if answer is not None and not answer.done():
                answer.set_result(msg)
            return
        self._heard = self.clock()
        self._started = True
        if kind == "pads":
            _, readings, self.frames = msg
            self._say(True, "frames arrive")
            at = self.clock()
            for pad, face_down, face_up in readings:
                self._queue.put_nowait(
                    CameraPad(at, pad, face_down, tuple(CardSighting(c, conf) for c, conf in face_up))
                )
        elif kind == "beat":
            self.frames = msg[1]
            self._say(True, "frames arrive")
        elif kind == "online":
            self._say(True, msg[1])
        elif kind in ("offline", "fatal"):
            self._say(False, msg[1])

    def _say(self, online: bool, detail: str) -> None:
        self.online, self.detail = online, detail
        if online != self._said:
            self._said = online
            self._queue.put_nowait(LinkStatus(self.clock(), online, CAMERA_DEVICE, detail))

    async def _watch(self) -> None:
        backoff = self.restart_s
        while True:
            try:
                async with asyncio.timeout(min(0.25, self.stale_s / 4)):
                    await self._dead.wait()
            except TimeoutError:
                pass
            proc = self.process
            if self._dead.is_set() or (proc is not None and not proc.is_alive()):
                self._drop_conn()
                if proc is not None:
                    await asyncio.get_running_loop().run_in_executor(None, proc.join, 3)
                code = proc.exitcode if proc is not None else None
                await asyncio.get_running_loop().run_in_executor(None, self._stop_child)
                self._say(False, f"the camera process ended (exit code {code}); starting it again")
                await asyncio.sleep(backoff)
                backoff = min(10.0, backoff * 2)
                self.restarts += 1
                self._spawn()
                continue
            if self.online:
                backoff = self.restart_s
            # a child still starting (a loaded machine, a slow import) is not yet a silent camera
            limit = self.stale_s if self._started else self.start_s
            if self.clock() - self._heard > limit and self._said is not False:
                self._say(
                    False,
                    f"no frame for {self.stale_s:g} s"
                    if self._started
                    else f"the camera process has not started in {self.start_s:g} s",
                )

    def _stop_child(self) -> None:
        proc = self.process
        if proc is None:
            return
        if proc.is_alive():
            proc.terminate()
            proc.join(3)
            if proc.is_alive():
                proc.kill()
        proc.join(3)
        with contextlib.suppress(ValueError):
            proc.close()
        self.process = None
        if self._conn is not None:
            self._drop_conn()


class Merged:
    """Several sensors' events as one async stream (``LiveTable(sensors=...)``): the seat
    controller's and the camera's, in the order they arrive.  Other attributes are the
    first sensor's (the seat controller's ``online``, ``set_led``...)."""

    def __init__(self, *sensors: Any) -> None:
        if not sensors:
            raise ValueError("nothing to merge")
        self.sensors = sensors

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sensors[0], name)

    async def events(self) -> AsyncIterator[SensorEvent]:
        queue: asyncio.Queue[tuple[bool, Any]] = asyncio.Queue()

        async def pump(sensor: Any) -> None:
            try:
                async for event in sensor.events():
                    await queue.put((True, event))
            except Exception as exc:  # the consumer sees it as the sensor's own failure
                await queue.put((False, exc))

        tasks = [asyncio.create_task(pump(s)) for s in self.sensors]
        try:
            while True:
                ok, item = await queue.get()
                if not ok:
                    raise item
                yield item
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


def merged(*sensors: Any) -> Merged:
    """``merged(client, worker)``: the seat controller and the camera as one stream."""
    return Merged(*sensors)
