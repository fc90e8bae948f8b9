"""Bootstrap and run the project: `python3 config/dev.py run` or `python3 config/dev.py test`.

Standard library only, and runs under any Python 3.8 or newer, because its job is to get from
whatever `python3` a machine has to a .venv with a Python new enough for Django (3.12+).
"""

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys

MINIMUM = (3, 12)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv")
PYPROJECT = os.path.join(ROOT, "pyproject.toml")
INSTALL_STAMP = os.path.join(VENV, ".unoclub-installed-pyproject-sha256")
PATH_NAMES = ("python3.14", "python3.13", "python3.12")
PYENV_PATTERN = "versions/3.1[2-9]*/bin/python3"
USAGE = "usage: python3 config/dev.py run [--addrport HOST:PORT] | test [pytest arguments]"


def step(message):
    print("dev.py: " + message, flush=True)


def fail(message):
    print("dev.py: error: " + message, file=sys.stderr, flush=True)
    sys.exit(1)


def version_of(python):
    """The (major, minor) of an interpreter, or None if it does not run (e.g. a pyenv shim
    for a version that is installed but not selected)."""
    try:
        out = subprocess.run(
            [python, "-c", "import sys; print('%d %d' % sys.version_info[:2])"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    major, minor = out.stdout.split()
    return int(major), int(minor)


def pyenv_pythons():
    """pyenv's interpreters of 3.12 or newer, newest first."""
    roots = [os.environ.get("PYENV_ROOT", ""), os.path.expanduser("~/.pyenv"), "/root/.pyenv"]
    found = set()
    for root in roots:
        if root:
            found.update(glob.glob(os.path.join(root, PYENV_PATTERN)))

    def key(path):
        name = os.path.basename(os.path.dirname(os.path.dirname(path)))
        return [int(part) for part in re.findall(r"\d+", name)]

    return sorted(found, key=key, reverse=True)


def find_python():
    if sys.version_info[:2] >= MINIMUM:
        return sys.executable
    candidates = [shutil.which(name) for name in PATH_NAMES]
    candidates += pyenv_pythons()
    for candidate in candidates:
        if candidate:
            version = version_of(candidate)
            if version and version >= MINIMUM:
                return candidate
    fail(
        f"no Python >= {MINIMUM[0]}.{MINIMUM[1]} found. Looked for: this interpreter "
        f"({sys.executable}, {sys.version.split()[0]}), {', '.join(PATH_NAMES)} on PATH, and "
        "~/.pyenv/versions/3.1[2-9]* (also under $PYENV_ROOT and /root/.pyenv). "
        "Install Python 3.12 or newer and run this again."
    )


def venv_python():
    if os.name == "nt":
        return os.path.join(VENV, "Scripts", "python.exe")
    return os.path.join(VENV, "bin", "python")


def ensure_venv():
    python = venv_python()
    if os.path.isdir(VENV):
        version = version_of(python)
        if version and version >= MINIMUM:
            step(f"using .venv (Python {version[0]}.{version[1]})")
            return python
        step(".venv's Python is missing, broken or older than 3.12: recreating it")
        shutil.rmtree(VENV)
    base = find_python()
    major, minor = version_of(base)
    step(f"creating .venv with {base} (Python {major}.{minor})")
    subprocess.check_call([base, "-m", "venv", VENV])
    return python


def pyproject_hash():
    with open(PYPROJECT, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def ensure_installed(python):
    wanted = pyproject_hash()
    try:
        with open(INSTALL_STAMP) as f:
            if f.read().strip() == wanted:
                step("dependencies up to date with pyproject.toml")
                return
    except OSError:
        pass
    step("installing the project and its test tools into .venv (pip install -e '.[test]')")
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.check_call(pip + ["-e", ".[test]"], cwd=ROOT)
    with open(INSTALL_STAMP, "w") as f:
        f.write(wanted + "\n")


CHROMIUM = "/usr/bin/chromium"


def ensure_chromium():
    """The browser tests drive Debian's chromium (never a browser Playwright downloads). As root
    with apt-get, install it when it is missing; otherwise say how, and let those tests fail
    saying the same."""
    if os.path.exists(CHROMIUM):
        return
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if not (is_root and shutil.which("apt-get")):
        step(
            "chromium is missing: the browser tests will fail. Install Debian's package as "
            "root: apt-get install -y chromium"
        )
        return
    for command in (["apt-get", "install", "-y", "chromium"], ["apt-get", "update"]):
        step("installing Debian's chromium for the browser tests: " + " ".join(command))
        if subprocess.call(command) == 0 and command[1] == "install":
            return
    # The package lists may have been stale: install again after the update.
    step("installing Debian's chromium for the browser tests: apt-get install -y chromium")
    if subprocess.call(["apt-get", "install", "-y", "chromium"]) != 0:
        step("apt-get could not install chromium: the browser tests will fail")


def run(python, argv):
    """Replace this process with the command, so signals and the exit code are the command's."""
    step("running: " + " ".join([os.path.relpath(python, ROOT)] + argv))
    os.chdir(ROOT)
    if os.name == "nt":
        sys.exit(subprocess.call([python] + argv))
    os.execv(python, [python] + argv)


def main(args):
    if not args or args[0] not in ("run", "test"):
        print(USAGE, file=sys.stderr)
        return 2
    python = ensure_venv()
    try:
        ensure_installed(python)
    except subprocess.CalledProcessError as exc:
        fail(f"installing the project failed (exit {exc.returncode}); see pip's output above")
    if args[0] == "run":
        run(python, ["manage.py", "up"] + args[1:])
    else:
        ensure_chromium()
        run(python, ["-m", "pytest"] + args[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
