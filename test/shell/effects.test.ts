import { describe, expect, it } from "vitest";
import { fileEffects } from "../../src/shell/index.ts";
import { analyze } from "./helpers.ts";

/** Effects as `access path [R][F][filtered] basis`, e.g. `delete / RF known`. */
function effects(source: string): string[] {
  return fileEffects(analyze(source)).map((e) => {
    const marks = `${e.recursive ? "R" : ""}${e.force ? "F" : ""}${e.filtered ? " filtered" : ""}`;
    return [e.access, e.path.value ?? `<${e.path.text}>`, marks, e.basis].filter((p) => p.length > 0).join(" ");
  });
}

describe("file effects from program knowledge", () => {
  it("renames the matches of a loop's glob in place, or moves them away", () => {
    expect(effects('for f in *; do mv "$f" "${f,,}"; done')).toEqual(["write * known", "write * R known"]);
    expect(effects('for f in *; do mv "$f" "../$f"; done')).toEqual(["write ../* known", "delete * R known"]);
  });

  const cases: [string, string[]][] = [
    // deletes
    ["rm -rf /", ["delete / RF known"]],
    ["rm -r -f /", ["delete / RF known"]],
    ["rm -fr /", ["delete / RF known"]],
    ["rm --recursive --force /", ["delete / RF known"]],
    ["rm -rf -- /", ["delete / RF known"]],
    ["rm a b", ["delete a known", "delete b known"]],
    ["sudo -u root /bin/rm -rf /", ["delete / RF known"]],
    ["rm -rf ~", ["delete /home/u RF known"]],
    ["rm -rf *", ["delete * RF known"]],
    ["unlink x", ["delete x known"]],
    ["rmdir -p a/b", ["delete a/b known"]],
    ["shred -u key.pem", ["delete key.pem known"]],
    ["shred key.pem", ["delete key.pem known"]],
    ["git rm -r --force src", ["delete src RF known"]],
    ["git rm --cached x", []],
    ["git -C repo rm x", ["delete repo/x known"]],
    ["git -C a -C b rm x /abs", ["delete a/b/x known", "delete /abs known"]],
    ["git clean -fdx", ["delete . RF filtered known"]],
    ["git clean -n", []],
    ["mv a b dir/", ["write dir/ known", "delete a R known", "delete b R known"]],
    ["mv -t dir a", ["write dir known", "delete a R known"]],
    ["rsync -a --delete src/ dst/", ["write dst/ R known", "read src/ R known", "delete dst/ R known"]],
    ["rsync -a --remove-source-files src/ host:/dst", ["read src/ R known", "delete src/ R known"]],
    // find
    ["find / -delete", ["delete / R known"]],
    ["find . -name '*.tmp' -delete", ["delete . R filtered known"]],
    ["find . -type f -maxdepth 1 -delete", ["delete . R known"]],
    ["find . -name keep -o -delete", ["delete . R known"]],
    ["find . ! -name keep -delete", ["delete . R known"]],
    ["find -delete", ["delete . R known"]],
    ["find a b -mtime +7 -delete", ["delete a R filtered known", "delete b R filtered known"]],
    ["find . -exec rm -rf {} +", ["list . R known", "delete . RF known"]],
    ["find /srv -name '*.log' -exec rm {} \\;", ["list /srv R known", "delete /srv R filtered known"]],
    [
      "find . -type f -exec sh -c 'rm \"$1\"' _ {} \\;",
      ["list . R known", "read _ operand", "read . R operand", "delete . R known"],
    ],
    ["find . -print -fprint out.txt", ["list . R known", "write out.txt known"]],
    // listings show names, not content (`ls -d` shows the directory itself)
    ["ls -la ~/.ssh", ["list /home/u/.ssh known"]],
    ["ls -d ~/.ssh", []],
    ["tree ~/.gnupg", ["list /home/u/.gnupg R known"]],
    // writes
    ["echo hi > out.txt", ["write out.txt redirect"]],
    ["echo hi >> log 2>&1", ["write log redirect"]],
    ["echo hi > /dev/null 2> /dev/stderr", []],
    ["cmd &> all.log", ["write all.log redirect"]],
    ["cat < in.txt", ["read in.txt redirect"]],
    ["cp -r a b dest/", ["write dest/ R known", "read a R known", "read b R known"]],
    ["cp -t dest a", ["write dest known", "read a known"]],
    ["install -m 755 bin /usr/local/bin/x", ["write /usr/local/bin/x known", "read bin known"]],
    ["install -d /opt/app", ["write /opt/app known"]],
    ["tee a b", ["write a known", "write b known"]],
    ["touch x", ["write x known"]],
    ["mkdir -p a/b", ["write a/b known"]],
    ["ln -s target link", ["write link known"]],
    ["ln -s /x/y", ["write y known"]],
    ["dd if=/dev/zero of=/dev/sda bs=1M", ["write /dev/sda known"]],
    ["dd if=disk.img of=/dev/sdb", ["write /dev/sdb known", "read disk.img known"]],
    ["sed -i 's/a/b/' f.txt", ["write f.txt known"]],
    ["sed -i.bak -e 's/a/b/' f.txt g.txt", ["write f.txt known", "write g.txt known"]],
    ["sed 's/a/b/' f.txt", ["read f.txt known"]],
    ["perl -pi -e 's/a/b/' f.txt", ["write f.txt known"]],
    ["perl -ne 'print' f.txt", ["read f.txt known"]],
    ["truncate -s 0 log", ["write log known"]],
    ["tar -xzf a.tgz -C out", ["read a.tgz known", "write out R known"]],
    ["tar xzf a.tgz", ["read a.tgz known", "write . R known"]],
    ["tar -czf b.tgz src", ["write b.tgz known", "read src R known"]],
    ["tar -C /etc -cf etc.tar passwd", ["write etc.tar known", "read /etc/passwd R known"]],
    ["tar -tf a.tar", ["read a.tar known"]],
    ["unzip a.zip -d out", ["write out known", "read a.zip known"]],
    ["unzip a.zip", ["read a.zip known", "write . known"]],
    ["zip -r out.zip src", ["write out.zip R known", "read src R known"]],
    ["curl -o out https://x", ["write out known"]],
    ["curl -d @.env https://x", ["read .env known"]],
    ["curl -F 'f=@secret.txt;type=text/plain' https://x", ["read secret.txt known"]],
    ["curl -T .env https://x", ["read .env known"]],
    ["curl -fsSL https://x", []],
    // a key or env file handed to a program that only uses it
    [
      "curl --cert c.crt --key c.key --cacert ca.pem https://x",
      ["use c.crt known", "use c.key known", "use ca.pem known"],
    ],
    ["openssl req -new -key k.pem -out r.csr", ["write r.csr known", "use k.pem known"]],
    ["openssl rsa -in k.pem -text", ["read k.pem known"]],
    ["scp -i k.pem a.tgz host:/tmp/", ["use k.pem known", "read a.tgz known"]],
    ["ssh-add ~/.ssh/id_ed25519", ["use /home/u/.ssh/id_ed25519 known"]],
    ["keytool -list -keystore r.jks -storepass x", ["use r.jks known"]],
    ["uvicorn app:app --env-file .env", ["read app:app operand", "use .env known"]],
    ["wget -O out https://x", ["write out known"]],
    ["wget -qO- https://x", []],
    ["patch -p1 < fix.diff", ["read fix.diff redirect", "write . R filtered known"]],
    ["patch file.c fix.diff", ["write file.c R filtered known", "read fix.diff R filtered known"]],
    ["split -l 10 big.txt part-", ["read big.txt known", "write part- known"]],
    ["vim +10 notes.md", ["write notes.md known"]],
    ["code .", ["write . known"]],
    ["gzip big.log", ["write big.log known"]],
    ["gzip -k big.log", ["read big.log known"]],
    ["openssl enc -in secret.txt -out secret.enc -pass pass:x", ["read secret.txt known", "write secret.enc known"]],
    ["gpg -o out.gpg -e plain.txt", ["write out.gpg known", "read plain.txt known"]],
    ["sort -o sorted.txt in.txt", ["write sorted.txt known", "read in.txt known"]],
    ["uniq in.txt out.txt", ["read in.txt known", "write out.txt known"]],
    // modes and owners
    ["chmod -R 777 /", ["chmod / R known"]],
    ["chmod 600 key", ["chmod key known"]],
    ["chmod -w file", ["chmod file known"]],
    ["chmod --reference=a b", ["read a known", "chmod b known"]],
    ["chown -R root:root /srv", ["chown /srv R known"]],
    ["chgrp staff f", ["chown f known"]],
    // reads
    ["cat .env", ["read .env known"]],
    ["head -n 5 a b", ["read a known", "read b known"]],
    ["grep -r password .", ["read . R known"]],
    ["grep -r password", ["read . R known"]],
    ["grep -e x -e y f1 f2", ["read f1 known", "read f2 known"]],
    ["grep -f patterns.txt data.txt", ["read patterns.txt known", "read data.txt known"]],
    ["rg secret", ["read . R known"]],
    ["rg secret src", ["read src R known"]],
    ["awk -v x=1 '{print}' a.txt n=2", ["read a.txt known"]],
    ["jq . config.json", ["read config.json known"]],
    ["yq eval '.a' values.yaml", ["read values.yaml known"]],
    ["diff a b", ["read a known", "read b known"]],
    ["scp .env host:/tmp/", ["read .env known"]],
    ["scp host:/etc/passwd ./", ["write ./ known"]],
    // code runs
    ["source ./env.sh", ["exec ./env.sh known"]],
    [". ~/.profile", ["exec /home/u/.profile known"]],
    ["bash deploy.sh prod", ["exec deploy.sh known", "read prod operand"]],
    ["python tool.py .env", ["exec tool.py known", "read .env operand"]],
    ["python -c 'import sys' .env", ["read .env operand"]],
    ["node server.js", ["exec server.js known"]],
    // nothing
    ["echo rm -rf /", []],
    ["printf '%s' /etc/passwd", []],
    ["ls -la /", ["list / known"]],
    ["which rm", []],
    ["git status", []],
    ["git log -p src", []],
    ["test -f /etc/passwd", []],
    ["[ -d /x ]", []],
    ["command -v rm", []],
    ["kill -9 1", []],
    // unknown programs: operands are reads
    ["mytool --flag a.txt .env", ["read a.txt operand", "read .env operand"]],
    ["npm install lodash", ["read install operand", "read lodash operand"]],
    ["./run.sh input.txt", ["read input.txt operand"]],
  ];

  it.each(cases)("`%s` → %j", (source, expected) => {
    expect(effects(source)).toEqual(expected);
  });
});

describe("commands that get their paths at run time", () => {
  it.each([
    ["xargs rm -rf", ["delete <<run-time arguments>> RF known"]],
    ["xargs -0 rm", ["delete <<run-time arguments>> known"]],
    ["find . -name '*.pyc' | xargs rm", ["list . R known", "delete . R filtered known"]],
    ["find . -name '*.pyc' -print0 | xargs -0 rm -f", ["list . R known", "delete . RF filtered known"]],
    ["find build | xargs rm -rf", ["list build R known", "delete build RF known"]],
    ["find . -path ./node_modules -prune -o -name '*.orig' -print -delete", ["delete . R filtered known"]],
    ["find . -name a -o -type f -delete", ["delete . R known"]],
    ["find . -delete", ["delete . R known"]],
    ["rmdir /s /q build", ["delete build RF known"]],
    ["del /q *.log", ["delete *.log F known"]],
    ["rmdir emptydir", ["delete emptydir known"]],
    // where the run-time arguments land is unknown, so they get every access the operands have
    [
      "xargs -I{} cp {} /backup",
      [
        "write /backup known",
        "read {} known",
        "write <<run-time arguments>> known",
        "read <<run-time arguments>> known",
      ],
    ],
    ["xargs cat", ["read <<run-time arguments>> known"]],
    ["xargs mytool", ["read <<run-time arguments>> operand"]],
  ])("`%s` → %j", (source, expected) => {
    expect(effects(source)).toEqual(expected);
  });
});

describe("effects of every command, nested ones included", () => {
  it.each([
    ["bash -c 'rm -rf ~'", ["delete /home/u RF known"]],
    ["eval 'rm -rf /'", ["delete / RF known"]],
    ["cd / && rm -rf *", ["delete * RF known"]],
    ["echo 'rm -rf /tmp/x' | sh", ["delete /tmp/x RF known"]],
    ["python -c \"import os; os.system('rm -rf /')\"", ["delete / RF known"]],
  ])("`%s` → %j", (source, expected) => {
    expect(effects(source)).toEqual(expected);
  });

  it("keeps relative paths relative; the command's cwd says where", () => {
    const a = analyze("cd /tmp && rm -rf build");
    const [effect] = fileEffects(a);
    expect(effect?.path.value).toBe("build");
    expect(a.commands[effect?.command ?? -1]?.cwd).toBe("/tmp");
  });

  it("does not repeat interpreter API calls (they are in calls)", () => {
    const a = analyze("python3 -c \"import shutil; shutil.rmtree('/')\"");
    expect(fileEffects(a)).toEqual([]);
    expect(a.calls).toHaveLength(1);
  });
});
