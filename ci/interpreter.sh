# Sourced by ci/build.sh and ci/matrix.sh: the Python that runs the suite.
# Debian's /usr/bin/python3, for which toolchains/install-deps.sh installs
# the Python packages (python3-jinja2, python3-pyelftools), even where
# another python3 comes first on PATH (a pyenv shim: 0.4 s a start, and
# without those packages); any python3 where Debian's is absent.
if [ -x /usr/bin/python3 ]; then
  xsdt_python=/usr/bin/python3
else
  xsdt_python=$(command -v python3)
fi
