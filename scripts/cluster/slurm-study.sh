#!/usr/bin/env bash
# A parameter study on a Slurm cluster (docs/studies.md): a Dask scheduler on the first node of the
# allocation, one Dask worker per allocated task, the study sent to them, the results table written
# where the job was submitted. mechsim (with its Python package) and Debian's python3-distributed
# must be installed on every node, and the study and mechanism files on a shared file system.
#
#   sbatch --nodes=4 --ntasks-per-node=32 scripts/cluster/slurm-study.sh STUDY.json results.csv
#   sbatch ... scripts/cluster/slurm-study.sh STUDY.json results.csv --resume    # after a stop
#
#SBATCH --job-name=mechsim-study
#SBATCH --output=mechsim-study-%j.log
#SBATCH --time=04:00:00
set -euo pipefail
study=${1:?usage: slurm-study.sh STUDY.json RESULTS.csv [--resume]}
out=${2:?usage: slurm-study.sh STUDY.json RESULTS.csv [--resume]}
shift 2
cli=${MECHSIM_CLI:-mechsim-cli}
port=${MECHSIM_DASK_PORT:-8786}
head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
address="tcp://$head:$port"
scratch=${TMPDIR:-/tmp}/mechsim-dask-$SLURM_JOB_ID

# The scheduler on the first node (one task of its own), the workers on every task of the job:
# one single-threaded worker per task, since every run is one thread's work.
srun --nodes=1 --ntasks=1 --nodelist="$head" --overlap \
  dask-scheduler --host "$head" --port "$port" --dashboard-address :0 &
scheduler=$!
sleep 5
srun --overlap dask-worker "$address" --nthreads 1 --local-directory "$scratch" &
workers=$!
trap 'kill $workers $scheduler 2>/dev/null || true' EXIT

# The study: runs stream back into the table as they finish; a stopped job resumes with --resume.
"$cli" study "$study" --out "$out" --scheduler "$address" "$@"
