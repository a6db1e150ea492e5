#!/usr/bin/env bash
# Ray for the GPU machine, which has none: its cp312 wheel (79 MB) is above the 64 MiB a device call
# may carry, so this builds a trimmed copy (the Java jars and the libraries the Ray backend never
# imports removed: rllib, tune, train, serve, data, llm), packed with xz (about 30 MB), beside the
# wheels of the dependencies the device image lacks. Run here, from the repo root:
#   bash benchmarks/ray_for_device.sh          # -> .raypkg/ (ignored by git: add it to .git/info/exclude)
# and on the device, before the tests (the call names .raypkg in its carry):
#   python3 -m pip install -q --no-index --no-deps --target /tmp/site .raypkg/*.whl
#   tar xJf .raypkg/ray-min.tar.xz -C /tmp/site; export PYTHONPATH=/tmp/site:$PWD
set -euo pipefail
RAY=${RAY_VERSION:-2.60.0}
OUT=.raypkg
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 \
  -d "$WORK/wheels" "ray==$RAY" jsonschema jsonschema-specifications referencing rpds-py
mkdir "$WORK/ray"
unzip -q "$WORK"/wheels/ray-*.whl -d "$WORK/ray"  # unzip keeps the binaries executable
rm -rf "$WORK"/ray/ray/{jars,rllib,tune,train,serve,data,llm}
tar cJf "$OUT/ray-min.tar.xz" -C "$WORK/ray" .
cp "$WORK"/wheels/{jsonschema,jsonschema_specifications,referencing,rpds_py}-*.whl "$OUT/"
du -sh "$OUT"
