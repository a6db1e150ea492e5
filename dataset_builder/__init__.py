"""Build the KernelBench-X Hugging Face dataset from the task files (see ``build.py``)."""
