"""The code barrier (harness/sandbox/guard.py CodeBarrier): while a section of the harness's work is
open no function judged the submission's may start, except inside ``outside``, which runs the
submission's own call (a timed repetition) with the watch off and puts the watch back after it."""

from __future__ import annotations

import sys

import pytest

from harness.sandbox.guard import CodeBarrier, GuardRefusal


def _submissions_function() -> int:
    return 1


def _kind(code) -> int:
    """The guard's judgement, as the armed hook hands it over: 2 for the submission's code."""
    return 2 if code is _submissions_function.__code__ else 1


def test_the_submissions_code_is_refused_inside_a_section():
    barrier = CodeBarrier([_kind])
    with pytest.raises(GuardRefusal, match="while the harness was timing"):
        with barrier("timing"):
            _submissions_function()
    assert sys.getprofile() is None


def test_a_refusal_swallowed_inside_the_section_still_ends_it_refused():
    barrier = CodeBarrier([_kind])
    with pytest.raises(GuardRefusal, match="while the harness was saving"):
        with barrier("saving"):
            try:
                _submissions_function()
            except GuardRefusal:
                pass  # library code catching everything


def test_outside_runs_the_submissions_own_call_and_watches_again_after_it():
    barrier = CodeBarrier([_kind])
    with barrier("timing"):
        assert barrier.outside(_submissions_function) == 1
        assert sys.getprofile() is not None  # the watch is back
    assert sys.getprofile() is None
    with pytest.raises(GuardRefusal):
        with barrier("timing"):
            barrier.outside(lambda: None)
            _submissions_function()


def test_a_watch_taken_off_inside_the_section_is_refused():
    barrier = CodeBarrier([_kind])
    with pytest.raises(GuardRefusal, match="taken off"):
        with barrier("timing"):
            sys.setprofile(None)


def test_before_the_guard_is_armed_nothing_is_refused():
    barrier = CodeBarrier([])  # the hook fills the judgement in when it is armed
    with barrier("timing"):
        assert _submissions_function() == 1
