# SPDX-License-Identifier: MIT
# Failures as pmapi.Error subclasses carrying the library's sentence.
import pytest

import pmapi


def test_unknown_event_says_did_you_mean():
    with pytest.raises(pmapi.InvalidEventError) as failure:
        pmapi.count("page-falts")
    message = str(failure.value)
    assert "page-falts" in message
    assert "did you mean" in message and "page-faults" in message
    assert failure.value.code == 6  # Pmapi_InvalidEvent
    assert isinstance(failure.value, pmapi.Error) and isinstance(failure.value, ValueError)


def test_unknown_group_like_name_is_an_event_error():
    with pytest.raises(pmapi.InvalidEventError, match="pm_sw_basik"):
        pmapi.count("pm_sw_basik")


def test_pattern_that_matches_nothing():
    with pytest.raises(pmapi.InvalidEventError, match=r"nothing_here_\*"):
        pmapi.count("nothing_here_*")


def test_bad_scope_and_cpus():
    with pytest.raises(ValueError, match="scope"):
        pmapi.count("task-clock", scope="galaxy")
    with pytest.raises(ValueError, match="cpus"):
        pmapi.count("task-clock", cpus=[0])


def test_cpu_out_of_range_is_the_librarys_error():
    with pytest.raises(pmapi.InvalidArgumentError) as failure:
        pmapi.count("task-clock", scope="system", cpus=[pmapi.cpu_count() + 5])
    assert failure.value.code == 11  # Pmapi_InvalidCpu
    assert str(failure.value)


def test_per_cpu_needs_system_scope():
    with pmapi.count("task-clock") as c:
        pass
    with pytest.raises(ValueError, match="system"):
        c.per_cpu()


def test_missing_command():
    with pytest.raises(FileNotFoundError):
        pmapi.count_command(["/nonexistent/pmapi-test-command"], events="task-clock")


def test_error_classes_by_code():
    from pmapi._errors import error_for

    assert type(error_for(15, "x")) is pmapi.PrivilegeError
    assert type(error_for(16, "x")) is pmapi.NoHardwareError
    assert type(error_for(17, "x")) is pmapi.TooManyFilesError
    assert type(error_for(21, "x")) is pmapi.NoSuchProcessError
    assert type(error_for(25, "x")) is pmapi.Error
