# SPDX-License-Identifier: MIT
"""The exceptions pmapi raises: one class per kind of failure, each carrying the library's
sentence (what failed and what to do) and its Pmapi_* code."""


class Error(Exception):
    """A libpmapi call failed. ``str(e)`` is the library's sentence; ``e.code`` its Pmapi_* code."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidEventError(Error, ValueError):
    """An event or group this machine does not have, or a malformed list (with "did you mean")."""


class InvalidArgumentError(Error, ValueError):
    """An argument the library refused: a CPU out of range, a thread that is not one."""


class PrivilegeError(Error):
    """The kernel refused for lack of privilege (kernel.perf_event_paranoid, CAP_PERFMON)."""


class NoHardwareError(Error):
    """The kernel cannot count the event here (a VM without a PMU, say)."""


class NotSchedulableError(Error):
    """A hardware event that does not fit the counters."""


class TooManyFilesError(Error):
    """More descriptors than ``ulimit -n`` allows."""


class NoSuchProcessError(Error, LookupError):
    """The process or thread to count does not exist."""


# Pmapi_* codes (pmapi.h) -> class; every other code is a plain Error.
_BY_CODE = {
    3: InvalidArgumentError,  # Pmapi_InvalidArg
    6: InvalidEventError,  # Pmapi_InvalidEvent
    7: InvalidEventError,  # Pmapi_InvalidGroup
    11: InvalidArgumentError,  # Pmapi_InvalidCpu
    15: PrivilegeError,  # Pmapi_Permission
    16: NoHardwareError,  # Pmapi_NoHardware
    17: TooManyFilesError,  # Pmapi_TooManyFiles
    19: NotSchedulableError,  # Pmapi_NotSchedulable
    21: NoSuchProcessError,  # Pmapi_NoSuchThread
}


def error_for(code: int, message: str) -> Error:
    """The exception for a failed call's code and sentence (the compiled module raises it)."""
    return _BY_CODE.get(code, Error)(code, message)
