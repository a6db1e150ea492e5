# Shared by the device scripts (sourced): what the machine is, and a timed, logged step.
# device_env FILE: the date, GPU, driver, clocks, Python, torch, CUDA, Triton, CPUs into FILE, and shown.
device_env() {
  {
    date -u +"date: %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,temperature.gpu,power.draw,pstate --format=csv
    python3 -c "import torch, triton, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__, 'threads', torch.get_num_threads())"
    nproc
  } > "$1" 2>&1
  cat "$1"
}
# run_dir NAME: a fresh folder /tmp/NAME as $R, with the machine described in $R/env.txt.
run_dir() {
  R=/tmp/$1
  rm -rf "$R" && mkdir -p "$R"
  device_env "$R/env.txt"
}
# step NAME LIMIT COMMAND...: run COMMAND under `timeout LIMIT` into $R/NAME.log; its exit code and
# seconds into $R/steps.txt, and shown with the log's last lines.
step() {
  local name=$1 limit=$2; shift 2
  local start=$(date +%s)
  timeout "$limit" "$@" > "$R/$name.log" 2>&1
  echo "$name: rc $? in $(( $(date +%s) - start )) s" | tee -a "$R/steps.txt"
  tail -3 "$R/$name.log"
}
