"""The workflows in .github/workflows/ are thin layers over make targets: actionlint and zizmor
pass on them (and fail on a broken one), every third-party action is pinned by commit, every
step runs a make target, and .ci/run still calls the README's test command."""
import re
import subprocess

import pytest
import yaml

from scratch import REPO

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = REPO / ".venv" / "bin" / "actionlint"
ZIZMOR = REPO / ".venv" / "bin" / "zizmor"
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")
# The one step that is glue, not logic: it pushes the merged ledger and opens a pull request.
GLUE = {"Open a pull request with the new ledger lines"}


def lint(*paths):
    a = subprocess.run([str(ACTIONLINT), "-no-color", "-oneline", *map(str, paths)],
                       capture_output=True, text=True)
    z = subprocess.run([str(ZIZMOR), "--offline", "--no-progress", *map(str, paths)],
                       capture_output=True, text=True)
    return a, z


def test_the_three_workflows_pass_actionlint_and_zizmor():
    assert [p.name for p in WORKFLOWS] == ["pr.yml", "publish.yml", "reproduce.yml"]
    a, z = lint(*WORKFLOWS)
    assert a.returncode == 0, a.stdout + a.stderr
    assert z.returncode == 0, z.stdout + z.stderr


def test_the_linters_bite(tmp_path):
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text("on: pull_request\njobs:\n  x:\n    runs-on: ubuntu-24.04\n    steps:\n"
                   "      - uses: actions/checkout@v4\n"
                   "      - run: echo ${{ github.event.pull_request.title }}\n"
                   "      - run: make test\n        shell: no-such-shell\n", encoding="utf-8")
    a, z = lint(bad)
    assert a.returncode != 0 and "shell" in a.stdout
    assert z.returncode != 0 and "unpinned-uses" in z.stdout + z.stderr
    assert "template-injection" in z.stdout + z.stderr


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_actions_are_pinned_and_steps_run_make(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for job_id, job in data["jobs"].items():
        for step in job["steps"]:
            if "uses" in step:
                assert PINNED.match(step["uses"]), f"{path.name} {job_id}：{step['uses']} 要按提交固定"
            elif step.get("name") not in GLUE:
                first = step["run"].strip().splitlines()[0]
                assert first.startswith("make "), f"{path.name} {job_id}：{step.get('name')} 要调 make 目标：{first}"


def test_ci_run_calls_the_readme_test_command():
    text = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert text.strip().splitlines()[-1] == "make test"
    assert "make test" in (REPO / "README.md").read_text(encoding="utf-8")
