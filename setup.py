"""Builds carcnet with its translations: the catalogs' sources
(``carcnet/locale/<code>/LC_MESSAGES/carcnet.po``) are compiled into ``carcnet.mo`` beside them (an
editable install) or into the build (a wheel), by Babel, a build requirement only
(``pyproject.toml``'s ``[build-system]``). Everything else is in ``pyproject.toml``.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Command, setup
from setuptools.command.build import build

LOCALE = Path("carcnet") / "locale"


class BuildCatalogs(Command):
    """Compiles every ``.po`` catalog under ``carcnet/locale`` into its ``.mo`` (fuzzy entries left
    out: they show English until a translator confirms them)."""

    description = "compile the translation catalogs (.po to .mo)"
    user_options: list[tuple[str, str | None, str]] = []
    editable_mode = False

    def initialize_options(self) -> None:
        self.build_lib: str | None = None

    def finalize_options(self) -> None:
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def _sources(self) -> list[Path]:
        return sorted(LOCALE.glob("*/LC_MESSAGES/carcnet.po"))

    def _targets(self, po: Path) -> list[Path]:
        targets = [po.with_suffix(".mo")]
        if not self.editable_mode and self.build_lib:
            targets.append(Path(self.build_lib) / po.with_suffix(".mo"))
        return targets

    def run(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in self._sources():
            with po.open("rb") as file:
                catalog = read_po(file)
            for target in self._targets(po):
                target.parent.mkdir(parents=True, exist_ok=True)
                with target.open("wb") as file:
                    write_mo(file, catalog, use_fuzzy=False)

    def get_source_files(self) -> list[str]:
        return [str(po) for po in self._sources()]

    def get_outputs(self) -> list[str]:
        return [str(target) for po in self._sources() for target in self._targets(po)]

    def get_output_mapping(self) -> dict[str, str]:
        return {}


class Build(build):
    """The standard build, the catalogs first."""

    sub_commands = [("build_catalogs", None), *build.sub_commands]


setup(cmdclass={"build": Build, "build_catalogs": BuildCatalogs})
