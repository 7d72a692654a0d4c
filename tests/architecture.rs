//! The module dependencies of `src/` against the `deps` block of `docs/ARCHITECTURE.md`: every
//! `crate::module` path in code (not in comments, not in `#[cfg(test)]` code) must be an edge
//! listed there, every module of `src/` must have a line, and the listed edges must form no
//! cycle, so that the map stays true as the code changes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `deps` block: module → the modules it may import.
fn allowed() -> BTreeMap<String, BTreeSet<String>> {
    let doc = std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap();
    let start = doc
        .find("```deps\n")
        .expect("docs/ARCHITECTURE.md has a ```deps block");
    let block = &doc[start + "```deps\n".len()..];
    let block = &block[..block.find("```").expect("the deps block is closed")];
    block
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (module, targets) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("`{line}`: expected `module: targets…`"));
            let targets = targets.split_whitespace().map(str::to_string).collect();
            (module.trim().to_string(), targets)
        })
        .collect()
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`engine` for `src/engine/budget.rs` and
/// for `src/engine.rs`); `None` for the crate roots.
fn module_of(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_string())
}

/// Every `crate::x` named by code: (module, target, `file:line`).
fn edges() -> Vec<(String, String, String)> {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap().to_path_buf();
        let Some(module) = module_of(&relative) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        // Test modules come last in a file; what they import is not the module's dependency.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (number, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("");
            let mut rest = line;
            while let Some(at) = rest.find("crate::") {
                rest = &rest[at + "crate::".len()..];
                let target: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if target != module {
                    edges.push((
                        module.clone(),
                        target,
                        format!("src/{}:{}", relative.display(), number + 1),
                    ));
                }
            }
        }
    }
    edges
}

#[test]
fn every_import_is_an_edge_of_the_map() {
    let allowed = allowed();
    let mut unlisted = BTreeSet::new();
    let mut outside = Vec::new();
    for (module, target, place) in edges() {
        match allowed.get(&module) {
            None => {
                unlisted.insert(module);
            }
            Some(targets) if !targets.contains(&target) => {
                outside.push(format!("{place}: {module} → {target}"));
            }
            Some(_) => {}
        }
    }
    assert!(
        unlisted.is_empty(),
        "modules with no line in the deps block of docs/ARCHITECTURE.md: {unlisted:?}"
    );
    assert!(
        outside.is_empty(),
        "imports outside the deps block of docs/ARCHITECTURE.md (move the code, or change the \
         map and say why):\n{}",
        outside.join("\n")
    );
}

#[test]
fn every_module_has_a_line_and_the_map_has_no_cycle() {
    let allowed = allowed();
    let mut modules = BTreeSet::new();
    for entry in std::fs::read_dir(root().join("src")).unwrap() {
        let path = entry.unwrap().path();
        if let Some(module) = module_of(Path::new(path.file_name().unwrap())) {
            modules.insert(module);
        }
    }
    let listed: BTreeSet<String> = allowed.keys().cloned().collect();
    assert_eq!(
        listed, modules,
        "the deps block lists exactly the modules of src/"
    );
    for targets in allowed.values() {
        for target in targets {
            assert!(modules.contains(target), "`{target}` is not a module");
        }
    }
    // Depth-first search for a cycle; `cli` must be imported by nobody.
    fn visit(
        module: &str,
        allowed: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if done.contains(module) {
            return;
        }
        assert!(
            !path.iter().any(|m| m == module),
            "the deps block has a cycle: {} → {module}",
            path.join(" → ")
        );
        path.push(module.to_string());
        for target in &allowed[module] {
            visit(target, allowed, path, done);
        }
        path.pop();
        done.insert(module.to_string());
    }
    let mut done = BTreeSet::new();
    for module in allowed.keys() {
        visit(module, &allowed, &mut Vec::new(), &mut done);
    }
    assert!(allowed.values().all(|targets| !targets.contains("cli")));
}
