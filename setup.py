# SPDX-License-Identifier: MIT
# The build of `pip install .`: CMake configures this tree with the Python package on, builds
# libpmapi and the module pmapi._pmapi only, and installs both into the package (the module
# finds the library beside it), for the interpreter running pip.
import os
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        package = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        build = Path(self.build_temp).resolve() / "cmake"
        configure = [
            "cmake", "-S", str(SOURCE), "-B", str(build),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DPMAPI_BUILD_TESTS=OFF", "-DPMAPI_BUILD_BENCHMARKS=OFF", "-DPMAPI_WERROR=OFF",
            "-DPMAPI_BUILD_PYTHON=ON", "-DPMAPI_PYTHON_BUNDLE=ON",
            f"-DPython3_EXECUTABLE={sys.executable}",
            f"-DPMAPI_PYTHON_INSTALL_DIR={package.parent}",
        ]
        if not (build / "CMakeCache.txt").exists() and subprocess.run(
                ["ninja", "--version"], capture_output=True).returncode == 0:
            configure += ["-G", "Ninja"]
        jobs = str(os.cpu_count() or 1)
        subprocess.check_call(configure)
        subprocess.check_call(["cmake", "--build", str(build), "--target", "pmapi_python",
                               "-j", jobs])
        subprocess.check_call(["cmake", "--install", str(build), "--component", "python"])


# setuptools' own build files go to build-pip/, beside (never inside) the CMake trees build*/.
(SOURCE / "build-pip").mkdir(exist_ok=True)
setup(
    ext_modules=[Extension("pmapi._pmapi", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(SOURCE / "build-pip")},
             "egg_info": {"egg_base": str(SOURCE / "build-pip")}},
)
