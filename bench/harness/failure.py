"""A contender's run that failed: it exited with an error, or its output is not what was served."""


class RunFailed(Exception):
    """Ends that contender's part in one scenario; the report shows why, the others go on."""
