//! The cluster recipes of `deploy/`: the shell scripts are valid bash, the Slurm files'
//! `#SBATCH` lines are well-formed, the Kubernetes manifest has the structure of an Indexed
//! Job on a claim, and each recipe runs exactly the `sgscope census` command lines it should.
//! The recipes run here against a stand-in `sgscope` that records its arguments (or the real
//! binary behind it), a stand-in `sbatch` that checks its options and runs each array task
//! with the environment Slurm gives it, and GNU parallel itself when it is installed (`.ci/run`
//! installs it), else a stand-in `parallel` that runs each shard in turn.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::root;

fn deploy(name: &str) -> PathBuf {
    root().join("deploy").join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(deploy(name)).unwrap()
}

fn write_executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A folder with a stand-in `sgscope` (each call appends its arguments, one line, separated
/// by spaces, to `calls.log`) and a stand-in GNU `parallel` (runs the command once per input
/// after `:::`, `{}` replaced, one after the other).
fn stand_ins() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    write_executable(
        &bin.join("sgscope"),
        &format!(
            "#!/usr/bin/env bash\necho \"$*\" >> '{}'\n",
            dir.path().join("calls.log").display()
        ),
    );
    write_executable(
        &bin.join("parallel"),
        r#"#!/usr/bin/env bash
# Options the recipe uses, then the command, then ::: and the inputs.
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs|--halt|--tagstring) shift 2 ;;
        --line-buffer) shift ;;
        *) break ;;
    esac
done
command=()
while [ "$1" != ":::" ]; do command+=("$1"); shift; done
shift
for input in "$@"; do
    "${command[@]//\{\}/$input}" || exit 1
done
"#,
    );
    dir
}

fn calls(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("calls.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn run(dir: &Path, program: &str, args: &[&str], env: &[(&str, &str)]) {
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(program)
        .args(args)
        .env("PATH", path)
        .envs(env.iter().copied())
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_shell_recipes_are_valid_bash() {
    for name in [
        "gnu-parallel.sh",
        "slurm-census.sbatch",
        "slurm-merge.sbatch",
    ] {
        let out = Command::new("bash")
            .arg("-n")
            .arg(deploy(name))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn gnu_parallel_runs_every_shard_then_the_merge() {
    let dir = stand_ins();
    let script = deploy("gnu-parallel.sh");
    run(
        dir.path(),
        "bash",
        &[script.to_str().unwrap()],
        &[("SHARDS", "3")],
    );
    let shard = |k: usize| {
        format!("--threads 1 census octal --digits 3 --shard {k}/3 --shard-file ./shards/octal-3-{k}-of-3.jsonl")
    };
    assert_eq!(
        calls(dir.path()),
        [
            shard(1),
            shard(2),
            shard(3),
            // No shard file exists (the stand-in writes none), so the glob stays as written.
            "census merge ./shards/octal-3-*-of-3.jsonl --format csv -o ./census.csv --report ./census.md".to_string(),
        ]
    );
    assert!(dir.path().join("shards").is_dir());
}

#[test]
fn gnu_parallel_merges_the_shard_files_it_wrote() {
    let dir = stand_ins();
    std::fs::create_dir(dir.path().join("shards")).unwrap();
    for k in 1..=2 {
        std::fs::write(
            dir.path().join(format!("shards/octal-2-{k}-of-2.jsonl")),
            "",
        )
        .unwrap();
    }
    let script = deploy("gnu-parallel.sh");
    run(
        dir.path(),
        "bash",
        &[script.to_str().unwrap()],
        &[
            ("SHARDS", "2"),
            ("DIGITS", "2"),
            ("EXTRA_ARGS", "--max 4096"),
        ],
    );
    let calls = calls(dir.path());
    assert_eq!(
        calls[0],
        "--threads 1 census octal --digits 2 --max 4096 --shard 1/2 --shard-file ./shards/octal-2-1-of-2.jsonl"
    );
    assert_eq!(
        calls[2],
        "census merge ./shards/octal-2-1-of-2.jsonl ./shards/octal-2-2-of-2.jsonl --format csv -o ./census.csv --report ./census.md"
    );
}

/// The `#SBATCH` lines: `(option, value)`, each before the first command.
fn sbatch_options(text: &str) -> Vec<(String, Option<String>)> {
    let mut options = Vec::new();
    let mut commands_started = false;
    for line in text.lines().skip(1) {
        let trimmed = line.trim();
        if let Some(option) = trimmed.strip_prefix("#SBATCH") {
            assert!(
                !commands_started,
                "`{line}` comes after a command: sbatch ignores it"
            );
            let option = option.trim();
            let option = option
                .strip_prefix("--")
                .unwrap_or_else(|| panic!("`{line}`: expected --option"));
            let (key, value) = match option.split_once('=') {
                Some((k, v)) => (k.to_string(), Some(v.to_string())),
                None => (option.to_string(), None),
            };
            assert!(
                key.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "`{line}`"
            );
            options.push((key, value));
        } else if !trimmed.is_empty() && !trimmed.starts_with('#') {
            commands_started = true;
        }
    }
    options
}

#[test]
fn the_slurm_array_is_well_formed_and_runs_its_task() {
    let text = read("slurm-census.sbatch");
    assert!(text.starts_with("#!/usr/bin/env bash\n"));
    let options = sbatch_options(&text);
    let value = |key: &str| {
        options
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no #SBATCH --{key}=…"))
    };
    let array = value("array");
    let (first, last) = array.split_once('-').expect("an array range A-B");
    let (first, last): (u32, u32) = (first.parse().unwrap(), last.parse().unwrap());
    assert_eq!(first, 1, "shards are numbered from 1");
    assert!(last > first);
    let time = value("time");
    let time: Vec<&str> = time.split(':').collect();
    assert_eq!(time.len(), 3);
    assert!(time.iter().all(|t| t.parse::<u32>().is_ok()));
    assert!(value("cpus-per-task").parse::<u32>().is_ok());
    // `--mem` as Slurm takes it: megabytes with an M or G suffix (a bare number is MB).
    let mem = value("mem");
    let (amount, unit) = mem.split_at(mem.len() - 1);
    assert!(
        amount.parse::<u32>().is_ok() && (unit == "M" || unit == "G"),
        "--mem={mem}"
    );
    // Logs go to a folder, appended to when a task is requeued.
    assert!(value("output").starts_with("logs/"));
    assert_eq!(value("open-mode"), "append");
    // The merge runs after every task, failed or not (afterok would wait forever).
    assert!(text.contains("--dependency=afterany:$JOBID deploy/slurm-merge.sbatch"));
    assert!(!text.contains("afterok"));
    // N is SHARDS, whose default is the array's.
    assert!(text.contains(&format!("SHARDS=${{SHARDS:-{last}}}")));

    let dir = stand_ins();
    let script = deploy("slurm-census.sbatch");
    run(
        dir.path(),
        "bash",
        &[script.to_str().unwrap()],
        &[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "1"),
            ("SLURM_CPUS_PER_TASK", "2"),
        ],
    );
    assert_eq!(
        calls(dir.path()),
        [format!(
            "--threads 2 census octal --digits 3 --shard 5/{last} --shard-file ./shards/octal-3-5-of-{last}.jsonl"
        )]
    );
}

#[test]
fn the_slurm_task_refuses_to_run_outside_an_array() {
    let out = Command::new("bash")
        .arg(deploy("slurm-census.sbatch"))
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env("SGSCOPE", "true")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("run this with sbatch"));
}

/// A stand-in for Slurm's `sbatch` in `dir/bin`, modelled on a real one-node Slurm 22.05 run
/// (deploy/SLURM-RUN.md). It accepts only the options the recipes' docs use and logs its
/// arguments to `sbatch.log`; it "submits" at once: it prints the job id (alone with
/// `--parsable`, else `Submitted batch job N`) and exits 0 whatever the tasks do, as sbatch
/// does. Here the tasks then run at once, one after the other: once per task of `--array`
/// (else of the script's `#SBATCH --array`), in the submission folder, with the environment
/// Slurm gives an array task — `SLURM_ARRAY_JOB_ID`, `SLURM_ARRAY_TASK_ID`,
/// `SLURM_ARRAY_TASK_COUNT` (the count of the tasks submitted: 1 for `--array=3`),
/// `SLURM_ARRAY_TASK_MIN`/`MAX` (of the tasks submitted: 3 and 17 for `--array=3,17`),
/// `SLURM_ARRAY_TASK_STEP`, `SLURM_JOB_ID` (one per task), `SLURM_JOB_NAME`,
/// `SLURM_SUBMIT_DIR`, `SLURM_CPUS_PER_TASK` — and the variables of `--export=ALL,K=V,…`.
/// A task's stdout and stderr go to the `#SBATCH --output` pattern (`%x`, `%A`, `%a`, `%j`),
/// appended with `--open-mode=append`; when the pattern's folder does not exist the task
/// fails without a log, as Slurm's does (state FAILED, exit code 53). Each task's end is
/// recorded in `sacct.log` as `JOBID[_TASK] STATE EXITCODE`.
fn stand_in_sbatch(dir: &Path) {
    write_executable(
        &dir.join("bin/sbatch"),
        &r#"#!/usr/bin/env bash
dir='@DIR@'
echo "$*" >> "$dir/sbatch.log"
array="" exports="" parsable=0 array_given=0
while [ $# -gt 0 ]; do
    case "$1" in
        --array=*) array=${1#--array=} array_given=1 ;;
        --export=*) exports=${1#--export=} ;;
        --parsable) parsable=1 ;;
        --dependency=afterany:*|--account=*|--partition=*|--qos=*) ;;
        -A|-p) shift ;;
        -*) echo "sbatch (stand-in): unexpected option $1" >&2; exit 1 ;;
        *) break ;;
    esac
    shift
done
script=$1
[ -f "$script" ] || { echo "sbatch: error: Unable to open file $script" >&2; exit 1; }
# The #SBATCH lines, read as sbatch reads them: up to the first command.
directive() {
    awk -v key="--$1=" '
        NR > 1 && !/^[ \t]*(#|$)/ { exit }
        /^#SBATCH[ \t]/ { sub(/^#SBATCH[ \t]+/, ""); if (index($0, key) == 1) print substr($0, length(key) + 1) }
    ' "$script" | tail -n 1
}
[ "$array_given" = 1 ] || array=$(directive array)
cpus=$(directive cpus-per-task)
name=$(directive job-name)
[ -n "$name" ] || name=$(basename "$script")
output=$(directive output)
mode=$(directive open-mode)
envs=()
IFS=, read -ra pairs <<< "$exports"
for pair in "${pairs[@]}"; do
    [ "$pair" = ALL ] || envs+=("$pair")
done
next_id() {
    local n
    n=$(cat "$dir/sbatch.next" 2>/dev/null || echo 1000)
    echo $((n + 1)) > "$dir/sbatch.next"
    echo "$n"
}
job=$(next_id)
# run_task TASK JOB_ID VAR=VALUE…: one task (TASK empty outside an array).
run_task() {
    local task=$1 id=$2 state=COMPLETED code=0
    shift 2
    local log=${output:-slurm-%j.out}
    [ -z "$task" ] || log=${output:-slurm-%A_%a.out}
    log=${log//%x/$name}
    log=${log//%A/$job}
    log=${log//%a/$task}
    log=${log//%j/$id}
    if [ ! -d "$(dirname "$log")" ]; then
        state=FAILED code=53
    else
        [ "$mode" = append ] || : > "$log"
        env "${envs[@]}" "$@" SLURM_JOB_ID="$id" SLURM_JOB_NAME="$name" \
            SLURM_SUBMIT_DIR="$PWD" ${cpus:+SLURM_CPUS_PER_TASK=$cpus} \
            bash "$script" >> "$log" 2>&1 || { code=$?; state=FAILED; }
    fi
    echo "${task:+${job}_}${task:-$job} $state $code" >> "$dir/sacct.log"
}
if [ -n "$array" ]; then
    tasks=()
    IFS=, read -ra ranges <<< "${array%%%*}"
    for range in "${ranges[@]}"; do
        if [[ $range == *-* ]]; then
            for t in $(seq "${range%-*}" "${range#*-}"); do tasks+=("$t"); done
        else
            tasks+=("$range")
        fi
    done
    sorted=$(printf '%s\n' "${tasks[@]}" | sort -n)
    min=$(head -n 1 <<< "$sorted")
    max=$(tail -n 1 <<< "$sorted")
    id=$job
    for t in "${tasks[@]}"; do
        run_task "$t" "$id" SLURM_ARRAY_JOB_ID="$job" SLURM_ARRAY_TASK_ID="$t" \
            SLURM_ARRAY_TASK_COUNT="${#tasks[@]}" SLURM_ARRAY_TASK_MIN="$min" \
            SLURM_ARRAY_TASK_MAX="$max" SLURM_ARRAY_TASK_STEP=1
        id=$(next_id)
    done
else
    run_task "" "$job"
fi
if [ "$parsable" = 1 ]; then echo "$job"; else echo "Submitted batch job $job"; fi
"#
        .replace("@DIR@", &dir.display().to_string()),
    );
}

/// Runs `program args` in `dir` with `dir/bin` first on `PATH`: success, stdout, stderr.
fn try_run(
    dir: &Path,
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> (bool, String, String) {
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(program)
        .args(args)
        .env("PATH", path)
        .envs(env.iter().copied())
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Submits `args` to the stand-in `sbatch` in `dir` (which must accept them): the job id.
fn sbatch(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut all = vec!["--parsable"];
    all.extend_from_slice(args);
    let (ok, out, err) = try_run(dir, "sbatch", &all, env);
    assert!(ok, "sbatch {args:?}: {err}");
    out.trim().to_string()
}

/// The states the stand-in `sbatch` recorded, as `sacct` would list them: `(job, state)`.
fn sacct(dir: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(dir.join("sacct.log"))
        .unwrap_or_default()
        .lines()
        .map(|line| {
            let mut fields = line.split(' ');
            (
                fields.next().unwrap().to_string(),
                fields.next().unwrap().to_string(),
            )
        })
        .collect()
}

fn read_log(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join("logs").join(name))
        .unwrap_or_else(|e| panic!("logs/{name}: {e}"))
}

/// `sbatch --array=3 deploy/slurm-census.sbatch`, the natural way to re-run one failed task,
/// failed with "slice 3 of 1 does not exist": N was the array's task count. N is now SHARDS.
#[test]
fn one_failed_slurm_task_is_rerun_alone() {
    let dir = stand_ins();
    stand_in_sbatch(dir.path());
    std::fs::create_dir(dir.path().join("logs")).unwrap();
    let script = deploy("slurm-census.sbatch");
    let job = sbatch(dir.path(), &["--array=3", script.to_str().unwrap()], &[]);
    assert_eq!(
        calls(dir.path()),
        ["--threads 2 census octal --digits 3 --shard 3/32 --shard-file ./shards/octal-3-3-of-32.jsonl"]
    );
    assert_eq!(
        sacct(dir.path()),
        [(format!("{job}_3"), "COMPLETED".into())]
    );
    // A task past SHARDS is submitted (sbatch cannot know), then fails at once, its log
    // saying what to set.
    let job = sbatch(dir.path(), &["--array=40", script.to_str().unwrap()], &[]);
    assert_eq!(sacct(dir.path())[1], (format!("{job}_40"), "FAILED".into()));
    let log = read_log(dir.path(), &format!("sgscope-census-{job}_40.out"));
    assert!(log.contains("SHARDS=32"), "{log}");
    assert_eq!(calls(dir.path()).len(), 1, "task 40 ran no census");
}

/// Without the log folder (`mkdir -p logs` in the docs) Slurm fails every task at once,
/// writing no log anywhere: the stand-in does the same, and the docs say to create it.
#[test]
fn a_slurm_task_without_its_log_folder_fails() {
    let dir = stand_ins();
    stand_in_sbatch(dir.path());
    let script = deploy("slurm-census.sbatch");
    let job = sbatch(dir.path(), &["--array=1", script.to_str().unwrap()], &[]);
    assert_eq!(sacct(dir.path()), [(format!("{job}_1"), "FAILED".into())]);
    assert!(calls(dir.path()).is_empty());
    assert!(read("README.md").contains("mkdir -p logs"));
}

/// The line of the merge's log that re-runs the failed tasks: the command inside `$(…)`.
fn rerun_command(log: &str) -> String {
    let line = log
        .lines()
        .find(|l| l.contains("sbatch --parsable --array="))
        .unwrap_or_else(|| panic!("no re-run line in the merge's log:\n{log}"));
    let start = line.find("$(").unwrap() + 2;
    let end = line.rfind(')').unwrap();
    line[start..end].to_string()
}

/// The whole Slurm recipe on the real binary, through the stand-in `sbatch`: four shards, a
/// lost shard and a cancelled one (its file cut after its first code), the merge naming both
/// with the command that re-runs them, that command run as printed, and the merge equal to
/// one run of the census.
#[test]
fn the_slurm_recipe_runs_reruns_and_merges_a_real_census() {
    let dir = stand_ins();
    stand_in_sbatch(dir.path());
    std::fs::create_dir(dir.path().join("logs")).unwrap();
    let census = deploy("slurm-census.sbatch");
    let merge = deploy("slurm-merge.sbatch");
    let settings = "--export=ALL,SHARDS=4,DIGITS=1,OUT=run,EXTRA_ARGS=--max 1024";
    let env = [("SGSCOPE", env!("CARGO_BIN_EXE_sgscope"))];
    let job = sbatch(
        dir.path(),
        &["--array=1-4", settings, census.to_str().unwrap()],
        &env,
    );
    let states = sacct(dir.path());
    assert_eq!(states.len(), 4);
    assert!(states.iter().all(|(_, s)| s == "COMPLETED"), "{states:?}");
    let log = read_log(dir.path(), &format!("sgscope-census-{job}_2.out"));
    assert!(log.contains("census of octal-1 (shard 2/4)"), "{log}");
    std::fs::remove_file(dir.path().join("run/shards/octal-1-3-of-4.jsonl")).unwrap();
    let cancelled = dir.path().join("run/shards/octal-1-2-of-4.jsonl");
    let text = std::fs::read_to_string(&cancelled).unwrap();
    let kept: Vec<&str> = text.lines().take(2).collect();
    std::fs::write(&cancelled, format!("{}\n", kept.join("\n"))).unwrap();

    let dependency = format!("--dependency=afterany:{job}");
    let merge_job = sbatch(
        dir.path(),
        &[&dependency, settings, merge.to_str().unwrap()],
        &env,
    );
    assert_eq!(
        sacct(dir.path()).last().unwrap(),
        &(merge_job.clone(), "FAILED".to_string()),
        "the merge of a census with a shard missing and one unfinished"
    );
    let log = read_log(dir.path(), &format!("sgscope-census-merge-{merge_job}.out"));
    assert!(
        log.contains("shards 3 of 4 have no file")
            && log.contains("shards 2 of 4 have not finished"),
        "{log}"
    );
    let rerun = rerun_command(&log);
    assert!(
        rerun.starts_with("sbatch --parsable --array=2,3 ")
            && rerun.contains("SHARDS=4")
            && rerun.ends_with(" deploy/slurm-census.sbatch"),
        "{rerun}"
    );
    assert!(!dir.path().join("run/octal-1.csv").exists());

    // The printed command, as the user would paste it (deploy/ is the recipes' folder).
    std::os::unix::fs::symlink(root().join("deploy"), dir.path().join("deploy")).unwrap();
    let (ok, out, err) = try_run(dir.path(), "bash", &["-c", &rerun], &env);
    assert!(ok, "{rerun}: {err}");
    let rerun_job = out.trim();
    let states = sacct(dir.path());
    assert_eq!(
        states[states.len() - 2..],
        [
            (format!("{rerun_job}_2"), "COMPLETED".to_string()),
            (format!("{rerun_job}_3"), "COMPLETED".to_string()),
        ]
    );
    let dependency = format!("--dependency=afterany:{rerun_job}");
    let merge_job = sbatch(
        dir.path(),
        &[&dependency, settings, merge.to_str().unwrap()],
        &env,
    );
    assert_eq!(
        sacct(dir.path()).last().unwrap(),
        &(merge_job, "COMPLETED".to_string())
    );
    let merged = std::fs::read_to_string(dir.path().join("run/octal-1.csv")).unwrap();
    let one_run = crate::support::ok(&[
        "census", "octal", "--digits", "1", "--max", "1024", "--format", "csv",
    ]);
    assert_eq!(without_seconds(&merged), without_seconds(&one_run));
    assert!(dir.path().join("run/octal-1.md").exists());
}

/// The values of every `key: value` line (or `- key: value` item) of `text`.
fn yaml_value<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    text.lines()
        .filter_map(|line| {
            let trimmed = line.trim_start().trim_start_matches("- ");
            trimmed
                .strip_prefix(key)
                .and_then(|rest| rest.strip_prefix(':'))
                .map(|v| v.trim().trim_matches('"'))
        })
        .collect()
}

#[test]
fn the_kubernetes_indexed_job_is_well_formed_and_runs_its_shard() {
    // No YAML parser is a dependency: a structural check of the subset the manifest uses
    // (spaces only, two-space indentation steps, `key: value`, `- item`, block scalars).
    let text = read("k8s-census-job.yaml");
    assert!(!text.contains('\t'), "tabs are not YAML indentation");
    let mut block_indent: Option<usize> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let body = line.trim();
        if body.is_empty() || body.starts_with('#') || body == "---" {
            continue;
        }
        if let Some(block) = block_indent {
            if indent > block {
                continue; // inside a `>-` block scalar
            }
            block_indent = None;
        }
        assert_eq!(indent % 2, 0, "odd indentation: `{line}`");
        let item = body.strip_prefix("- ").unwrap_or(body);
        if item.ends_with(">-") || item.ends_with('|') {
            block_indent = Some(indent);
            continue;
        }
        assert!(
            item.contains(": ") || item.ends_with(':') || body.starts_with("- "),
            "not `key: value` or `- item`: `{line}`"
        );
    }
    let documents: Vec<&str> = text.split("\n---\n").collect();
    assert_eq!(documents.len(), 2, "a claim and a job");
    assert_eq!(yaml_value(documents[0], "kind"), ["PersistentVolumeClaim"]);
    assert_eq!(yaml_value(documents[1], "kind"), ["Job"]);
    assert_eq!(yaml_value(documents[1], "apiVersion"), ["batch/v1"]);
    let job = documents[1];
    assert_eq!(yaml_value(job, "completionMode"), ["Indexed"]);
    assert_eq!(yaml_value(job, "restartPolicy"), ["Never"]);
    let completions = yaml_value(job, "completions")[0];
    let parallelism: u32 = yaml_value(job, "parallelism")[0].parse().unwrap();
    assert!(parallelism >= 1);
    assert_eq!(
        yaml_value(documents[0], "name"),
        yaml_value(job, "claimName"),
        "the job mounts the claim"
    );
    // The env list names SHARDS, then its value: it must equal `completions`.
    let lines: Vec<&str> = job.lines().map(str::trim).collect();
    let shards_at = lines
        .iter()
        .position(|l| *l == "- name: SHARDS")
        .expect("a SHARDS variable");
    assert_eq!(
        lines[shards_at + 1],
        format!("value: \"{completions}\""),
        "SHARDS and completions must be the same N"
    );
    let digits_at = lines.iter().position(|l| *l == "- name: DIGITS").unwrap();
    let digits = lines[digits_at + 1]
        .trim_start_matches("value: ")
        .trim_matches('"');

    // The container's command: the folded block after `args:`, run by sh as the pod would.
    let start = lines.iter().position(|l| *l == "- >-").expect("args: - >-") + 1;
    let end = start
        + lines[start..]
            .iter()
            .position(|l| l.ends_with(':'))
            .unwrap();
    let command = lines[start..end].join(" ");
    let dir = stand_ins();
    // The claim's mount point `/shards`, here a folder of the test's.
    let mount = dir.path().join("volume");
    let m = mount.display().to_string();
    let command = command
        .replace(" /shards/", &format!(" {m}/"))
        .replace("\"/shards/", &format!("\"{m}/"));
    for index in ["0", "15"] {
        run(
            dir.path(),
            "sh",
            &["-c", &command],
            &[
                ("JOB_COMPLETION_INDEX", index),
                ("SHARDS", completions),
                ("DIGITS", digits),
            ],
        );
    }
    let s = &m;
    assert_eq!(
        calls(dir.path()),
        [
            format!("--threads 2 census octal --digits 3 --shard 1/16 --shard-file {s}/shards/octal-3-1-of-16.jsonl"),
            format!("--threads 2 census octal --digits 3 --shard 16/16 --shard-file {s}/shards/octal-3-16-of-16.jsonl"),
        ]
    );
}

/// Whether GNU parallel is installed (`.ci/run` installs it from Debian's packages).
fn real_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success() && out.stdout.starts_with(b"GNU parallel"))
}

#[test]
fn the_gnu_parallel_recipe_runs_a_real_census_to_its_merge() {
    // The real GNU parallel when installed, else its stand-in; the real sgscope behind the
    // logging stand-in.
    let dir = stand_ins();
    if real_parallel() {
        std::fs::remove_file(dir.path().join("bin/parallel")).unwrap();
    } else {
        eprintln!("note: GNU parallel is not installed; its stand-in runs the recipe");
    }
    let log = dir.path().join("calls.log");
    write_executable(
        &dir.path().join("bin/sgscope"),
        &format!(
            "#!/usr/bin/env bash\necho \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            env!("CARGO_BIN_EXE_sgscope")
        ),
    );
    let script = deploy("gnu-parallel.sh");
    let env = [
        ("SHARDS", "3"),
        ("DIGITS", "1"),
        ("EXTRA_ARGS", "--max 1024"),
    ];
    run(dir.path(), "bash", &[script.to_str().unwrap()], &env);
    let csv = std::fs::read_to_string(dir.path().join("census.csv")).unwrap();
    assert_eq!(csv.lines().count(), 17, "{csv}");
    assert!(csv.starts_with("code,status,preperiod,period"), "{csv}");
    let report = std::fs::read_to_string(dir.path().join("census.md")).unwrap();
    assert!(report.contains("16 codes: "), "{report}");
    // Run again: every shard resumes with nothing left to do, and the merge is the same.
    run(dir.path(), "bash", &[script.to_str().unwrap()], &env);
    let again = std::fs::read_to_string(dir.path().join("census.csv")).unwrap();
    assert_eq!(without_seconds(&again), without_seconds(&csv));
}

/// The CSV lines of a census without the `seconds` column (the only one that differs).
fn without_seconds(csv: &str) -> Vec<String> {
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let seconds = header.iter().position(|&h| h == "seconds").unwrap();
    csv.lines()
        .map(|line| {
            let mut fields: Vec<&str> = line.split(',').collect();
            fields.remove(seconds);
            fields.join(",")
        })
        .collect()
}

#[test]
fn the_gnu_parallel_recipe_runs_with_xargs_where_parallel_is_missing() {
    // No stand-in: the real binary, run by `xargs -P` (RUNNER=xargs, as on a machine without
    // GNU parallel), two shards at once; the merge equals one run of the census.
    let dir = tempfile::tempdir().unwrap();
    let script = deploy("gnu-parallel.sh");
    let env = [
        ("SGSCOPE", env!("CARGO_BIN_EXE_sgscope")),
        ("RUNNER", "xargs"),
        ("SHARDS", "4"),
        ("JOBS", "2"),
        ("DIGITS", "1"),
        ("EXTRA_ARGS", "--max 1024"),
    ];
    run(dir.path(), "bash", &[script.to_str().unwrap()], &env);
    let sharded = std::fs::read_to_string(dir.path().join("census.csv")).unwrap();
    let one_run = crate::support::ok(&[
        "census", "octal", "--digits", "1", "--max", "1024", "--format", "csv",
    ]);
    assert_eq!(without_seconds(&sharded), without_seconds(&one_run));
    // A shard that fails stops the recipe before the merge.
    let env_bad = [
        ("SGSCOPE", env!("CARGO_BIN_EXE_sgscope")),
        ("RUNNER", "xargs"),
        ("SHARDS", "2"),
        ("DIGITS", "1"),
        ("EXTRA_ARGS", "--max many"),
        ("OUT", "bad"),
    ];
    let status = Command::new("bash")
        .arg(script.to_str().unwrap())
        .envs(env_bad)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(!status.status.success());
    assert!(!dir.path().join("bad/census.csv").exists());
}
