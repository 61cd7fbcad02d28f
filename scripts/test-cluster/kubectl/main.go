// kubectl for the cluster tests, at the version of the test cluster's kube-apiserver: the tests run
// the commands `aim-pulumi import` prints exactly as printed, through a shell, so a kubectl must be
// on the PATH, and a machine's own (if any) may be of any version.
package main

import (
	_ "k8s.io/client-go/plugin/pkg/client/auth"
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	command := cmd.NewDefaultKubectlCommand()
	if err := cli.RunNoErrOutput(command); err != nil {
		util.CheckErr(err)
	}
}
